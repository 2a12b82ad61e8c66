// getopt, optind, optarg, opterr: the command line is known when
// translating (Options.Args), so getopt is a finite machine over its
// state, optind and the position inside a cluster of options (-vq), and
// each call is a branch per state to the result the C library computes.
// The machine is POSIX getopt's, which glibc's equals when every option
// comes before the first operand (glibc otherwise permutes argv): a
// command line with an option after an operand is refused.

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// libReg is a register standing for an object of the C library, with its
// value at the start of main.
type libReg struct {
	ent  *entity
	init int64
}

// libRegister returns the register of the library object name, making it
// on first use.
func (t *translator) libRegister(n cc.Node, name string, init int64) *entity {
	if r, ok := t.libRegs[name]; ok {
		return r.ent
	}
	if len(t.regs) >= 24 {
		t.refuse(n, "too many locals (the checker has 32 registers, some for temporaries)")
	}
	cname := name
	if strings.HasPrefix(name, "getopt_") {
		cname = "(getopt " + strings.TrimPrefix(name, "getopt_") + ")"
	}
	e := &entity{kind: kReg, name: t.fresh(name, cname)}
	t.regs = append(t.regs, e.name)
	if t.libRegs == nil {
		t.libRegs = map[string]libReg{}
	}
	t.libRegs[name] = libReg{e, init}
	return e
}

// runMain translates main with its parameters bound, then sets the
// registers of the C library it used before its first line.
func (t *translator) runMain(main *cc.FunctionDefinition) {
	binds := t.mainParams(main)
	n := len(t.out)
	t.function(main, binds, "", "main")
	org := t.cur
	if n < len(t.orig) {
		org = t.orig[n]
	}
	var lines []string
	var origs []Origin
	for _, name := range []string{"optind", "opterr"} {
		if r, ok := t.libRegs[name]; ok && r.init != 0 {
			lines = append(lines, fmt.Sprintf("    %s <- %d", r.ent.name, r.init))
			origs = append(origs, org)
		}
	}
	t.out = append(t.out[:n], append(lines, t.out[n:]...)...)
	t.orig = append(t.orig[:n], append(origs, t.orig[n:]...)...)
}

// libcObject is what an object declared by our headers denotes: optind
// and opterr are registers of the program (1 at the start); optarg is
// read by the string routines (optargCases); the others are refused.
func (t *translator) libcObject(x *cc.PrimaryExpression, d *cc.Declarator) *entity {
	switch d.Name() {
	case "optind", "opterr":
		return t.libRegister(x, d.Name(), 1)
	case "optarg":
		t.refuse(x, "optarg other than as the argument of atoi, strtol, strcmp or strlen")
	case "optopt":
		t.refuse(x, "optopt: not modelled; the option character is getopt's result '?'")
	case "errno":
		t.refuse(x, "errno: it is set by routines outside the subset")
	case "stdin", "stdout", "stderr":
		t.refuse(x, "%s used other than as the stream of a printing routine", d.Name())
	}
	return nil
}

// optState is a state of getopt: the word optind designates and the next
// character inside it (0: at the start of a word).
type optState struct{ ind, nc int }

// optStep is what a call in a state returns and leaves.
type optStep struct {
	ret        int64
	next       optState
	argW, argO int // optarg = argv[argW] + argO; argW 0: unchanged
}

// getoptMachine computes POSIX getopt on the command line for every state
// a program can be in: optind at any word (the program may set it), and
// the positions inside the clusters of options.
func (t *translator) getoptMachine(n cc.Node, opts string) map[optState]optStep {
	argv := t.argv()
	if strings.HasPrefix(opts, "+") || strings.HasPrefix(opts, "-") || strings.Contains(opts, "::") || strings.ContainsAny(opts, "W;") {
		t.refuse(n, "getopt option string %q: GNU extensions (+, -, ::, W;) are outside the subset", opts)
	}
	operand := false
	for k := 1; k < len(argv); k++ {
		w := argv[k]
		if w == "--" {
			break // every word after it is an operand, in both
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			operand = true
			continue
		}
		if operand {
			t.refuse(n, "getopt with the option %s after an operand on the command line (--args): the C libraries differ there (glibc permutes argv); put the options first", w)
		}
		// an option taking an argument at the end of its cluster takes
		// the next word, which is then no operand
		for p := 1; p < len(w); p++ {
			if j := strings.IndexByte(opts, w[p]); w[p] != ':' && j >= 0 && j+1 < len(opts) && opts[j+1] == ':' {
				if p+1 == len(w) {
					k++
				}
				break
			}
		}
	}
	m := map[optState]optStep{}
	var todo []optState
	for i := 1; i <= len(argv); i++ {
		todo = append(todo, optState{i, 0})
	}
	for len(todo) > 0 {
		s := todo[0]
		todo = todo[1:]
		if _, ok := m[s]; ok {
			continue
		}
		st := getoptStep(argv, opts, s)
		m[s] = st
		todo = append(todo, st.next)
	}
	return m
}

// getoptStep is one call of POSIX getopt in state s.
func getoptStep(argv []string, opts string, s optState) optStep {
	argc := len(argv)
	i, nc := s.ind, s.nc
	if nc == 0 {
		if i >= argc {
			return optStep{ret: -1, next: s}
		}
		w := argv[i]
		if !strings.HasPrefix(w, "-") || w == "-" {
			return optStep{ret: -1, next: s}
		}
		if w == "--" {
			return optStep{ret: -1, next: optState{i + 1, 0}}
		}
		nc = 1
	}
	w := argv[i]
	c := w[nc]
	nc++
	done := func() optState {
		if nc >= len(w) {
			return optState{i + 1, 0}
		}
		return optState{i, nc}
	}
	k := strings.IndexByte(opts, c)
	if c == ':' || k < 0 {
		return optStep{ret: '?', next: done()}
	}
	if k+1 >= len(opts) || opts[k+1] != ':' {
		return optStep{ret: int64(c), next: done()}
	}
	switch {
	case nc < len(w):
		return optStep{ret: int64(c), next: optState{i + 1, 0}, argW: i, argO: nc}
	case i+1 < argc:
		return optStep{ret: int64(c), next: optState{i + 2, 0}, argW: i + 1}
	case strings.HasPrefix(opts, ":"):
		return optStep{ret: ':', next: optState{i + 1, 0}}
	}
	return optStep{ret: '?', next: optState{i + 1, 0}}
}

// getopt is one call: a branch per state to its result. optind outside
// 1..argc (0, which glibc takes as a restart, or beyond argc) stops the
// PE: the model follows no library's restart.
func (t *translator) getopt(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 3)
	opts := t.knownString(name, args[2])
	if t.getoptOpts != "" && t.getoptOpts != opts {
		t.refuse(args[2], "getopt with another option string than %q: the subset keeps one", t.getoptOpts)
	}
	t.getoptOpts = opts
	for _, a := range args[:2] {
		if !a.Pure() {
			t.refuse(a, "an argument of getopt with side effects")
		}
	}
	m := t.getoptMachine(x, opts)
	if len(t.opt.Args) == 0 {
		return t.intConst(x, -1) // no word: -1 at once, nothing changes
	}
	ind := t.libRegister(x, "optind", 1).name
	nc := t.libRegister(x, "getopt_nc", 0).name
	aw := t.libRegister(x, "getopt_argw", 0).name
	ao := t.libRegister(x, "getopt_argo", 0).name
	r, end := t.temp(), t.label()
	states := sortedStates(m)
	labels := make([]string, len(states))
	for k, s := range states {
		labels[k] = t.label()
		t.emit("if %s == %d && %s == %d goto %s", ind, s.ind, nc, s.nc, labels[k])
	}
	t.emit("goto %s", t.end)
	for k, s := range states {
		st := m[s]
		t.place(labels[k])
		t.emit("%s <- %s", r, t.intConst(x, st.ret))
		t.emit("%s <- %d", ind, st.next.ind)
		t.emit("%s <- %d", nc, st.next.nc)
		if st.argW > 0 {
			t.emit("%s <- %d", aw, st.argW)
			t.emit("%s <- %d", ao, st.argO)
		}
		t.emit("goto %s", end)
	}
	t.place(end)
	return r
}

func sortedStates(m map[optState]optStep) []optState {
	var out []optState
	for s := range m {
		out = append(out, s)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].ind < out[j-1].ind || out[j].ind == out[j-1].ind && out[j].nc < out[j-1].nc); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// isOptarg reports whether e is the identifier optarg of our headers.
func isOptarg(e cc.ExpressionNode) bool {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent || p.Token.SrcStr() != "optarg" {
		return false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	return ok && ours(d.Position().Filename)
}

// optargCases is f(optarg): a branch per argument getopt can have set;
// optarg still NULL (no getopt call set it) stops the PE, as the crash
// would.
func (t *translator) optargCases(n cc.Node, f func(string) string) string {
	argv := t.argv()
	var cases [][2]int
	if t.getoptOpts != "" {
		seen := map[[2]int]bool{}
		for _, st := range t.getoptMachine(n, t.getoptOpts) {
			if k := [2]int{st.argW, st.argO}; st.argW > 0 && !seen[k] {
				seen[k] = true
				cases = append(cases, k)
			}
		}
	}
	aw := t.libRegister(n, "getopt_argw", 0).name
	ao := t.libRegister(n, "getopt_argo", 0).name
	r, end := t.temp(), t.label()
	labels := make([]string, len(cases))
	for k, c := range cases {
		labels[k] = t.label()
		t.emit("if %s == %d && %s == %d goto %s", aw, c[0], ao, c[1], labels[k])
	}
	t.emit("goto %s", t.end)
	for k, c := range cases {
		t.place(labels[k])
		t.emit("%s <- %s", r, f(argv[c[0]][c[1]:]))
		t.emit("goto %s", end)
	}
	t.place(end)
	return r
}
