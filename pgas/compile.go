package pgas

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"strings"
)

// Compile parses, checks and compiles a .pgas program. filename is used in
// positions and messages. Every mistake in the input is reported in an
// ErrorList; Compile never panics on any input.
func Compile(filename string, src []byte) (*Program, error) {
	var errs ErrorList
	f := parse(filename, src, &errs)
	if len(errs) > 0 {
		return nil, errs.err()
	}
	p := &Program{File: filename}
	c := &checker{f: f, src: src, errs: &errs, prog: p, names: map[string]nameInfo{}}
	c.declarations()
	if len(f.stmts) > MaxStates {
		errs.add(f.stmts[MaxStates].pos, fmt.Sprintf("too many statements: %d, limit %d", len(f.stmts), MaxStates))
		return nil, errs.err()
	}
	g := c.build()
	if len(errs) > 0 {
		return nil, errs.err()
	}
	if msg := g.finish(p); msg != "" {
		errs.add(Pos{File: filename, Line: 1, Col: 1}, msg)
		return nil, errs.err()
	}
	c.handleReuse()
	if len(errs) > 0 {
		return nil, errs.err()
	}
	return p, nil
}

// Load reads and compiles a file. A file that cannot be read gives the
// error of ReadSource; mistakes in its text give an ErrorList.
func Load(path string) (*Program, error) {
	src, err := ReadSource(path)
	if err != nil {
		return nil, err
	}
	return Compile(path, src)
}

// MaxSourceBytes caps a program: what ReadSource reads, and what Compile
// takes (a source that did not come from a file). Programs are a few
// kilobytes; the cap keeps a mistaken argument (/dev/zero, a core dump)
// from growing the process until the kernel kills it, and bounds every
// later stage. It is the one file-size limit of docs/language.md and
// docs/cli.md.
const MaxSourceBytes = 1 << 20

// ReadSource reads a program file: a regular file of at most
// MaxSourceBytes. Errors are *os.PathError naming the file.
func ReadSource(path string) ([]byte, error) {
	return ReadLimited(path, MaxSourceBytes, "a program")
}

// ReadLimited reads a regular file of at most limit bytes (what names the
// kind of file in the error). Errors are *os.PathError naming the file:
// a device or a fifo would be read without end.
func ReadLimited(path string, limit int64, what string) ([]byte, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: path, Err: errors.New("not a regular file")}
	}
	// Files of /proc report a size of 0.
	src := make([]byte, 0, max(min(st.Size(), limit)+1, 512))
	src, err = readAll(io.LimitReader(f, limit+1), src)
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > limit {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d MiB, the limit for %s", limit>>20, what)}
	}
	return src, nil
}

// readAll is io.ReadAll into b's spare capacity: ReadLimited sizes b from
// the file's length, so a file is read in one call instead of from 512
// bytes up.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// CheckN reports whether p can run on n ranks: 1 <= n <= MaxRanks, and no
// rank, value, address or queue expression that depends only on N is out
// of its domain for this N.
func CheckN(p *Program, n int) error {
	if n < 1 {
		return fmt.Errorf("N = %d: the number of ranks must be at least 1", n)
	}
	if n > MaxRanks {
		return fmt.Errorf("N = %d: at most %d ranks are supported", n, MaxRanks)
	}
	var errs ErrorList
	env := Env{N: int64(n)}
	check := func(x *Expr, f func(*Expr, Env) (int64, error)) {
		if x == nil {
			return
		}
		for _, in := range x.Code {
			if in.Op == XReg || in.Op == XRank {
				return
			}
		}
		if _, err := f(x, env); err != nil {
			msg := err.Error()
			if re, ok := err.(*RangeError); ok {
				msg = strings.TrimPrefix(msg, re.Pos.String()+": ")
			}
			errs.add(x.Pos, fmt.Sprintf("%s: %s for N = %d", x.Src, msg, n))
		}
	}
	for _, t := range p.Trans {
		cmd := t.Cmd
		check(cmd.Addr, p.Address)
		check(cmd.Local, p.Address)
		check(cmd.Remote, p.Address)
		check(cmd.Rank, p.RankOf)
		check(cmd.Queue, p.QueueOf)
		for _, it := range cmd.Set {
			check(it.First, p.RankOf)
			check(it.Last, p.RankOf)
		}
		if cmd.Op == OpStore || cmd.Op == OpAssign || cmd.Op == OpSend || cmd.Op == OpAtomic {
			check(cmd.Val, p.Value)
			check(cmd.Val2, p.Value)
		}
	}
	return errs.err()
}

// graph is the program automaton before epsilon elimination: one node per
// control point, command edges, and epsilon edges from gotos.
type graph struct {
	names []string
	eps   [][]int
	out   [][]Trans // command edges by source node; From/To are node ids
	init  int
}

func (g *graph) node(name string) int {
	g.names = append(g.names, name)
	g.eps = append(g.eps, nil)
	g.out = append(g.out, nil)
	return len(g.names) - 1
}

func (g *graph) edge(from, to int, st step, pos Pos, text string) {
	g.out[from] = append(g.out[from], Trans{From: from, To: to, Cmd: st.cmd, Pos: pos, Text: text, Sugar: st.sugar})
}

// build lowers every statement and wires the control flow. A label names
// a control state: every statement it labels starts there, and so does the
// statement a fall-through reaches.
func (c *checker) build() *graph {
	f := c.f
	n := len(f.stmts)
	// Union-find over statement entries; n is the end of the program.
	parent := make([]int, n+1)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	labelAt := map[string]int{}  // first statement a label is on
	labelPos := map[string]Pos{} // where it is first written
	occurrences := map[string][]int{}
	labelsOf := func(i int) []ident {
		if i == n {
			return f.endLabels
		}
		return f.stmts[i].labels
	}
	for i := 0; i <= n; i++ {
		seen := map[string]bool{}
		for _, l := range labelsOf(i) {
			if seen[l.name] {
				c.errorf(l.pos, "label %s written twice on the same statement", l.name)
				continue
			}
			seen[l.name] = true
			occurrences[l.name] = append(occurrences[l.name], i)
			if j, ok := labelAt[l.name]; ok {
				parent[find(i)] = find(j)
				continue
			}
			labelAt[l.name], labelPos[l.name] = i, l.pos
		}
	}
	// A label on several statements is a non-deterministic choice. To
	// tell that from a copy-paste slip, each of them must say where it
	// goes next.
	for name, occ := range occurrences {
		if len(occ) < 2 {
			continue
		}
		for _, i := range occ {
			if i < n && f.stmts[i].hasGoto {
				continue
			}
			pos := labelPos[name]
			for _, l := range labelsOf(i) {
				if l.name == name {
					pos = l.pos
				}
			}
			where := "falls through to the next line"
			if i == n {
				where = "labels the end of the program"
			}
			c.errorf(pos, "label %s is on several statements (a non-deterministic choice), so each must end with an explicit goto, but this one %s", name, where)
		}
	}
	// Nodes: one per class, named by its first label.
	g := &graph{}
	nodeOf := map[int]int{}
	entry := func(i int) int {
		r := find(i)
		if id, ok := nodeOf[r]; ok {
			return id
		}
		name := ""
		for j := 0; j <= n && name == ""; j++ {
			if ls := labelsOf(j); find(j) == r && len(ls) > 0 && !strings.HasPrefix(ls[0].name, "$") {
				name = ls[0].name
			}
		}
		if name == "" {
			if r == n {
				name = "@end"
			} else {
				name = fmt.Sprintf("@%d", f.stmts[r].pos.Line)
			}
		}
		nodeOf[r] = g.node(name)
		return nodeOf[r]
	}
	start := entry(0)
	target := func(l ident) (int, bool) {
		i, ok := labelAt[l.name]
		if !ok {
			c.errorf(l.pos, "undefined label %s", l.name)
			return 0, false
		}
		return entry(i), true
	}
	for i, s := range f.stmts {
		from := entry(i)
		var succ []int
		if s.hasGoto {
			seen := map[int]bool{}
			for _, l := range s.targets {
				if t, ok := target(l); ok && !seen[t] {
					seen[t] = true
					succ = append(succ, t)
				}
			}
		} else {
			succ = []int{entry(i + 1)}
		}
		if s.kind == sGoto {
			g.eps[from] = append(g.eps[from], succ...)
			continue
		}
		var jump []int
		if s.kind == sIf {
			if t, ok := target(s.targets[0]); ok {
				jump = []int{t}
			}
		}
		k := 0
		for _, p := range c.lower(s) {
			to := succ
			if p.jump {
				to = jump
			}
			at := from
			for j, st := range p.steps {
				if j == len(p.steps)-1 {
					for _, t := range to {
						g.edge(at, t, st, s.pos, s.text)
					}
					break
				}
				k++
				next := g.node(fmt.Sprintf("@%d.%d", s.pos.Line, k))
				g.edge(at, next, st, s.pos, s.text)
				at = next
			}
		}
	}
	g.init = start
	if c.one >= 0 {
		// The cell every shadow read copies from must hold 1 before any
		// operation that uses it is issued.
		g.init = g.node("@init")
		pos := Pos{File: c.prog.File, Line: 1, Col: 1}
		g.edge(g.init, start, step{c.storeShadow(c.one, 1, pos), "init"}, pos, "mem[$one] <- 1 (set up for handles, get, put and waitq)")
	}
	return g
}

// MaxTrans bounds the transitions of a compiled program. Eliminating gotos
// can multiply transitions (each state gets the commands of its whole
// epsilon closure), so without it a small file could need gigabytes.
const MaxTrans = 1 << 16

// finish removes epsilon edges and unreachable nodes and writes the
// automaton into p. Every control state is final, so a node's commands
// are simply those of every node in its epsilon closure. It returns a
// message if a limit is exceeded.
func (g *graph) finish(p *Program) string {
	id := map[int]int{g.init: 0}
	order := []int{g.init}
	mark := make([]int, len(g.names))
	for k := 0; k < len(order); k++ {
		q := order[k]
		// Depth-first epsilon closure of q, in source order.
		stack := []int{q}
		mark[q] = k + 1
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, t := range g.out[u] {
				if len(p.Trans) >= MaxTrans {
					return fmt.Sprintf("program has more than %d transitions after eliminating gotos, limit %d", MaxTrans, MaxTrans)
				}
				to, ok := id[t.To]
				if !ok {
					if len(order) >= MaxStates {
						return fmt.Sprintf("program has more than %d control states after expanding sugar, limit %d", MaxStates, MaxStates)
					}
					to = len(order)
					id[t.To] = to
					order = append(order, t.To)
				}
				t.From, t.To = k, to
				p.Trans = append(p.Trans, t)
			}
			for j := len(g.eps[u]) - 1; j >= 0; j-- {
				if v := g.eps[u][j]; mark[v] != k+1 {
					mark[v] = k + 1
					stack = append(stack, v)
				}
			}
		}
	}
	p.Labels = make([]string, len(order))
	for k, q := range order {
		p.Labels[k] = g.names[q]
	}
	p.Init = 0
	p.Out = make([][]int, len(order))
	for i, t := range p.Trans {
		p.Out[t.From] = append(p.Out[t.From], i)
	}
	return ""
}

// handleReuse rejects issuing an operation on a handle whose previous
// operation may still be pending on some path. The shadow read of the
// older operation could then set the shadow after the newer reset, and a
// later wait could pass before the newer operation completed, which the
// API does not allow. It is a may-analysis over the compiled automaton:
// the set of handles possibly pending in each control state.
func (c *checker) handleReuse() {
	p := c.prog
	shadowOf := func(t Trans) (uint64, bool) {
		if t.Cmd.Addr == nil {
			return 0, false
		}
		a, ok := t.Cmd.Addr.Const()
		if !ok || a < 0 || a >= 64 {
			return 0, false
		}
		return 1 << uint(a), true
	}
	pending := make([]uint64, len(p.Labels))
	queued := make([]bool, len(p.Labels))
	reached := make([]bool, len(p.Labels))
	reached[p.Init] = true
	work := []int{p.Init}
	queued[p.Init] = true
	reported := map[Pos]bool{}
	for len(work) > 0 {
		q := work[len(work)-1]
		work = work[:len(work)-1]
		queued[q] = false
		for _, i := range p.Out[q] {
			t := p.Trans[i]
			out := pending[q]
			switch {
			case t.Sugar == "handle" && t.Cmd.Op == OpStore:
				if bit, ok := shadowOf(t); ok {
					if out&bit != 0 && !reported[t.Pos] {
						reported[t.Pos] = true
						name := strings.TrimPrefix(p.Addrs[bits.TrailingZeros64(bit)], handlePfx)
						c.errorf(t.Pos, "handle %s is issued again while its previous operation may still be pending: wait %s first", name, name)
					}
					out |= bit
				}
			case t.Sugar == "wait" && t.Cmd.Op == OpLoad:
				if bit, ok := shadowOf(t); ok {
					out &^= bit
				}
			}
			if !reached[t.To] || out|pending[t.To] != pending[t.To] {
				reached[t.To] = true
				pending[t.To] |= out
				if !queued[t.To] {
					queued[t.To] = true
					work = append(work, t.To)
				}
			}
		}
	}
}
