package pgas

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// TestControlFlowOracle compares the compiled automaton of random
// programs made of assignments, ifs and gotos with a naive reading of the
// rules of docs/language.md: labels that share a statement or a name
// denote one point; from a point, any statement starting there may run; a
// goto moves without a command. Both must accept the same command words
// (identified by line and command) up to a length.
func TestControlFlowOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	compiled := 0
	for iter := 0; iter < 400; iter++ {
		prog := randomFlow(rng)
		p, err := Compile("t.pgas", []byte(prog.source()))
		if err != nil {
			continue // e.g. a shared label without goto
		}
		compiled++
		const depth = 5
		got := automatonWords(p, depth)
		want := prog.words(depth)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("program\n%s\ncompiled to\n%s\nwords differ:\ngot\n%s\nwant\n%s",
				prog.source(), p, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if compiled < 100 {
		t.Errorf("only %d of 400 random programs compiled; the generator is off", compiled)
	}
}

type flowStmt struct {
	labels  []string
	kind    int // 0 assign, 1 assign; goto, 2 if, 3 goto alone
	k       int
	targets []string
}

type flowProg struct {
	stmts     []flowStmt
	endLabels []string
}

var flowLabels = []string{"A", "B", "C", "D"}

func randomFlow(rng *rand.Rand) *flowProg {
	n := 1 + rng.IntN(6)
	fp := &flowProg{}
	pick := func() []string {
		var ls []string
		for _, l := range flowLabels {
			if rng.IntN(5) == 0 {
				ls = append(ls, l)
			}
		}
		return ls
	}
	targets := func() []string {
		ts := []string{flowLabels[rng.IntN(len(flowLabels))]}
		if rng.IntN(3) == 0 {
			ts = append(ts, flowLabels[rng.IntN(len(flowLabels))])
		}
		return ts
	}
	for i := 0; i < n; i++ {
		s := flowStmt{labels: pick(), kind: rng.IntN(4), k: rng.IntN(2)}
		if s.kind != 0 {
			s.targets = targets()
		}
		if s.kind == 2 {
			s.targets = s.targets[:1]
		}
		fp.stmts = append(fp.stmts, s)
	}
	fp.endLabels = pick()
	// Make sure every target exists somewhere, so most programs compile.
	defined := map[string]bool{}
	for _, s := range fp.stmts {
		for _, l := range s.labels {
			defined[l] = true
		}
	}
	for _, l := range fp.endLabels {
		defined[l] = true
	}
	for _, s := range fp.stmts {
		for _, l := range s.targets {
			if !defined[l] {
				fp.endLabels = append(fp.endLabels, l)
				defined[l] = true
			}
		}
	}
	return fp
}

func (fp *flowProg) source() string {
	var b strings.Builder
	b.WriteString("values 2\naddress x\nregister r\nqueue q\n")
	for _, s := range fp.stmts {
		for _, l := range s.labels {
			b.WriteString(l + ": ")
		}
		switch s.kind {
		case 0:
			fmt.Fprintf(&b, "r <- %d", s.k)
		case 1:
			fmt.Fprintf(&b, "r <- %d; goto %s", s.k, strings.Join(s.targets, ", "))
		case 2:
			fmt.Fprintf(&b, "if r == %d goto %s", s.k, s.targets[0])
		case 3:
			fmt.Fprintf(&b, "goto %s", strings.Join(s.targets, ", "))
		}
		b.WriteString("\n")
	}
	for _, l := range fp.endLabels {
		b.WriteString(l + ":\n")
	}
	return b.String()
}

// words enumerates the command words of the naive reading.
func (fp *flowProg) words(depth int) []string {
	n := len(fp.stmts)
	labelsAt := func(i int) []string {
		if i == n {
			return fp.endLabels
		}
		return fp.stmts[i].labels
	}
	// same[i][j]: points i and j are one control state (shared labels,
	// closed transitively).
	same := make([][]bool, n+1)
	for i := range same {
		same[i] = make([]bool, n+1)
		same[i][i] = true
		for j := 0; j <= n; j++ {
			for _, a := range labelsAt(i) {
				for _, b := range labelsAt(j) {
					if a == b {
						same[i][j] = true
					}
				}
			}
		}
	}
	for k := 0; k <= n; k++ {
		for i := 0; i <= n; i++ {
			for j := 0; j <= n; j++ {
				if same[i][k] && same[k][j] {
					same[i][j] = true
				}
			}
		}
	}
	point := func(l string) int {
		for i := 0; i <= n; i++ {
			for _, a := range labelsAt(i) {
				if a == l {
					return i
				}
			}
		}
		panic("undefined label " + l)
	}
	type move struct {
		word string
		to   int
	}
	var moves func(p int, seen map[int]bool) []move
	moves = func(p int, seen map[int]bool) []move {
		var ms []move
		for j := 0; j < n; j++ {
			if !same[p][j] || seen[j] {
				continue
			}
			seen[j] = true
			s := fp.stmts[j]
			line := 5 + j
			switch s.kind {
			case 0:
				ms = append(ms, move{fmt.Sprintf("%d:r <- %d", line, s.k), j + 1})
			case 1:
				for _, l := range s.targets {
					ms = append(ms, move{fmt.Sprintf("%d:r <- %d", line, s.k), point(l)})
				}
			case 2:
				ms = append(ms, move{fmt.Sprintf("%d:assume(r == %d)", line, s.k), point(s.targets[0])})
				ms = append(ms, move{fmt.Sprintf("%d:assume(!(r == %d))", line, s.k), j + 1})
			case 3:
				for _, l := range s.targets {
					ms = append(ms, moves(point(l), seen)...)
				}
			}
		}
		return ms
	}
	set := map[string]bool{}
	var walk func(p int, prefix string, d int)
	walk = func(p int, prefix string, d int) {
		set[prefix] = true
		if d == depth {
			return
		}
		for _, m := range moves(p, map[int]bool{}) {
			walk(m.to, prefix+" "+m.word, d+1)
		}
	}
	walk(0, "", 0)
	return sortedKeys(set)
}

// automatonWords enumerates the command words of a compiled program.
func automatonWords(p *Program, depth int) []string {
	set := map[string]bool{}
	var walk func(q int, prefix string, d int)
	walk = func(q int, prefix string, d int) {
		set[prefix] = true
		if d == depth {
			return
		}
		for _, i := range p.Out[q] {
			t := p.Trans[i]
			walk(t.To, fmt.Sprintf("%s %d:%s", prefix, t.Pos.Line, p.CmdString(t.Cmd)), d+1)
		}
	}
	walk(p.Init, "", 0)
	return sortedKeys(set)
}

func sortedKeys(m map[string]bool) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
