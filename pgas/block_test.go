package pgas

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// commandWords lists the words of core commands (without lines or state
// names) of length up to depth that the automaton accepts.
func commandWords(p *Program, depth int) string {
	set := map[string]bool{}
	var walk func(q int, prefix string, d int)
	walk = func(q int, prefix string, d int) {
		set[prefix] = true
		if d == depth {
			return
		}
		for _, i := range p.Out[q] {
			t := p.Trans[i]
			walk(t.To, prefix+"; "+cmdKey(p, t.Cmd), d+1)
		}
	}
	walk(p.Init, "", 0)
	ws := make([]string, 0, len(set))
	for w := range set {
		ws = append(ws, w)
	}
	sort.Strings(ws)
	return strings.Join(ws, "\n")
}

// cmdKey names a command for comparing automata: an assume by its truth
// table over registers r, s in 0..2, anything else by its text.
func cmdKey(p *Program, c Cmd) string {
	if c.Op != OpAssume {
		return cmdText(p, c)
	}
	var b strings.Builder
	b.WriteString("assume ")
	for r := int64(0); r < 3; r++ {
		for s := int64(0); s < 3; s++ {
			ok, err := p.Holds(c.Val, Env{Regs: []int64{r, s}, Rank: 1, N: 2})
			fmt.Fprint(&b, map[bool]string{true: "1", false: "0"}[ok && err == nil])
		}
	}
	return b.String()
}

// TestBlocks checks each block form against the gotos docs/language.md
// says it stands for: both programs must accept the same command words.
func TestBlocks(t *testing.T) {
	tests := []struct{ name, blocks, gotos string }{
		{"if",
			"if r == 1 {\n s <- 1\n}\nbarrier",
			"if !(r == 1) goto E\n s <- 1\nE: barrier"},
		{"if else",
			"if r == 1 {\n s <- 1\n} else {\n s <- 2\n}\nbarrier",
			"if !(r == 1) goto F\n s <- 1\n goto E\nF: s <- 2\nE: barrier"},
		{"while",
			"while r < 2 {\n r <- r + 1\n}\nbarrier",
			"T: if !(r < 2) goto E\n r <- r + 1\n goto T\nE: barrier"},
		{"nested",
			"while r < 2 {\n if r == 0 {\n  s <- 1\n } else {\n  s <- 2\n }\n r <- r + 1\n}\nif s == 2 {\n mem[x] <- s\n}\nbarrier",
			"T: if !(r < 2) goto E\n if !(r == 0) goto F\n s <- 1\n goto G\nF: s <- 2\nG: r <- r + 1\n goto T\nE: if !(s == 2) goto H\n mem[x] <- s\nH: barrier"},
		{"empty blocks",
			"if r == 1 {\n} else {\n}\nwhile r == 2 {\n}\nbarrier",
			"if !(r == 1) goto F\n goto E\nF:\nE:\nT: if !(r == 2) goto X\n goto T\nX: barrier"},
		{"labels inside and on blocks",
			"L: while r < 2 {\n r <- r + 1; goto L\n}",
			"L: if !(r < 2) goto E\n r <- r + 1; goto L\n goto L\nE:"},
		{"block at the end",
			"if r == 1 {\n s <- 1\n}",
			"if !(r == 1) goto E\n s <- 1\nE:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := mustCompile(t, header+tt.blocks+"\n")
			b := mustCompile(t, header+tt.gotos+"\n")
			checkWellFormed(t, a)
			wa, wb := commandWords(a, 8), commandWords(b, 8)
			if wa != wb {
				t.Errorf("block version\n%s\n\ngoto version\n%s\n\nautomata:\n%s\n%s", wa, wb, transitions(a), transitions(b))
			}
		})
	}
}

func TestBlockErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"}\n", "5:1: } without an open block"},
		{"while r {\n barrier\n} else {\n}\n", "7:3: else after while block"},
		{"if r {\n} else {\n} else {\n}\n", "7:3: else after else block"},
		{"if r {\n barrier\n", "5:1: if block is not closed (missing })"},
		{"while r\n barrier\n", "5:8: expected { after the condition of while, found \"end of line\""},
		{"if r { barrier\n}\n", "5:8: expected end of line, found name \"barrier\""},
		{"while r {\n}; goto L\n", "6:2: expected end of line, found \";\""},
		{"if r {\n} else\n", "6:7: expected { after else, found \"end of line\""},
	}
	for _, tt := range tests {
		_, err := Compile("t.pgas", []byte(header+tt.src))
		want := "t.pgas:" + tt.want
		if err == nil || !strings.Contains(err.Error()+"\n", want+"\n") {
			t.Errorf("%q:\n got  %v\n want %s", tt.src, err, want)
		}
	}
}
