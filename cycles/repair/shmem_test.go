package repair

import (
	"slices"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The OpenSHMEM vocabulary on the text alone. The programs are compiled
// by hand (the front end of the new statements is a separate package), in
// the shape docs/shmem-calculus.md gives: one transition per statement,
// numbered control states, contexts as queue ids with Ctx set.

func konst(v int64, src string) *pgas.Expr {
	return &pgas.Expr{Code: []pgas.Instr{{Op: pgas.XConst, Arg: v}}, Src: src}
}

func regExpr(r int64, src string) *pgas.Expr {
	return &pgas.Expr{Code: []pgas.Instr{{Op: pgas.XReg, Arg: r}}, Src: src}
}

// shmemProgram is src with its statements (from line first on, one per
// line, indented by four spaces) compiled to the commands cmds.
func shmemProgram(src string, regs, queues []string, ctx []bool, first int, cmds []pgas.Cmd) *pgas.Program {
	p := &pgas.Program{Values: 2, Addrs: []string{"data", "flag"}, Regs: regs, Queues: queues, Ctx: ctx}
	lines := strings.Split(src, "\n")
	for i, c := range cmds {
		p.Labels = append(p.Labels, "s")
		ln := first + i
		p.Trans = append(p.Trans, pgas.Trans{From: i, To: i + 1, Cmd: c, Pos: pgas.Pos{Line: ln, Col: 5}, Text: strings.TrimSpace(lines[ln-1])})
	}
	p.Labels = append(p.Labels, "end")
	p.Out = make([][]int, len(p.Labels))
	for i := range cmds {
		p.Out[i] = []int{i}
	}
	return p
}

// mpSrc is message passing: data by a non-blocking put, the flag by a
// put of a value, then a load of the flag (line 7).
const mpSrc = "values 2\ncontext c\naddress data, flag\nregister r\n" +
	"    putmem_nbi(data, 2, data, c)\n    putval(1, 2, flag, c)\n    r <- mem[flag]\n"

func mpCmds() []pgas.Cmd {
	c := konst(0, "c")
	cmds := []pgas.Cmd{
		{Op: pgas.OpSend, Reg: -1, Local: konst(0, "data"), Rank: konst(2, "2"), Remote: konst(0, "data"), Queue: c},
		{Op: pgas.OpSend, Reg: -1, Val: konst(1, "1"), Rank: konst(2, "2"), Remote: konst(1, "flag"), Queue: c},
		{Op: pgas.OpLoad, Reg: 0, Addr: konst(1, "flag")},
	}
	return cmds
}

func TestShmemCandidates(t *testing.T) {
	p := shmemProgram(mpSrc, []string{"r"}, []string{"c"}, []bool{true}, 5, mpCmds())
	got := analyse(p).candidates()
	at := func(l int) pgas.Pos { return pgas.Pos{Line: l, Col: 5} }
	// The put at line 5 can be made blocking and be followed by a fence
	// or quiet before lines 6 and 7; the putval can become an atomic; its
	// fence and quiet before line 7 are those of the put already.
	want := []Candidate{
		{Kind: Blocking, Op: at(5)},
		{Kind: Fence, Queue: "c", At: at(6)}, {Kind: Quiet, Queue: "c", At: at(6)},
		{Kind: Fence, Queue: "c", At: at(7)}, {Kind: Quiet, Queue: "c", At: at(7)},
		{Kind: Atomic, Op: at(6)},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("candidates\n%+v\nwant\n%+v", got, want)
	}
}

func TestShmemEdits(t *testing.T) {
	at := func(l int) pgas.Pos { return pgas.Pos{Line: l, Col: 5} }
	head := "values 2\ncontext c\naddress data, flag\n"
	load := pgas.Cmd{Op: pgas.OpLoad, Reg: 0, Addr: konst(1, "flag")}
	readsR := pgas.Cmd{Op: pgas.OpStore, Reg: -1, Addr: konst(0, "data"), Val: regExpr(0, "r")}
	store := pgas.Cmd{Op: pgas.OpStore, Reg: -1, Addr: konst(0, "data"), Val: konst(1, "1")}
	cases := []struct {
		name  string
		src   string
		regs  []string
		first int      // line of the put
		third pgas.Cmd // the statement after the putval
		set   []Candidate
		want  string
	}{
		{"fence", mpSrc, []string{"r"}, 5, load, []Candidate{{Kind: Fence, Queue: "c", At: at(6)}},
			head + "register r\n    putmem_nbi(data, 2, data, c)\n    fence c\n    putval(1, 2, flag, c)\n    r <- mem[flag]\n"},
		{"quiet and fence", mpSrc, []string{"r"}, 5, load, []Candidate{{Kind: Quiet, Queue: "c", At: at(7)}, {Kind: Fence, Queue: "c", At: at(6)}},
			head + "register r\n    putmem_nbi(data, 2, data, c)\n    fence c\n    putval(1, 2, flag, c)\n    quiet c\n    r <- mem[flag]\n"},
		{"blocking", mpSrc, []string{"r"}, 5, load, []Candidate{{Kind: Blocking, Op: at(5)}},
			head + "register r\n    putmem(data, 2, data, c)\n    putval(1, 2, flag, c)\n    r <- mem[flag]\n"},
		// r is written by the load after the putval and read nowhere: it
		// is dead there and takes the old value of the flag.
		{"atomic into a dead register", mpSrc, []string{"r"}, 5, load, []Candidate{{Kind: Atomic, Op: at(6)}},
			head + "register r\n    putmem_nbi(data, 2, data, c)\n    r <- amo_swap(1, 2, flag, c)\n    r <- mem[flag]\n"},
		// An atomic set is delivered like a put: the same swap replaces it.
		{"atomic set", strings.Replace(mpSrc, "putval", "amo_set", 1), []string{"r"}, 5, load, []Candidate{{Kind: Atomic, Op: at(6)}},
			head + "register r\n    putmem_nbi(data, 2, data, c)\n    r <- amo_swap(1, 2, flag, c)\n    r <- mem[flag]\n"},
		// r is read after the putval (mem[data] <- r): live, so a register
		// t is declared beside it, before the comment.
		{"atomic into a new register", head + "register r  # one\n    putmem_nbi(data, 2, data, c)\n    putval(1, 2, flag, c)\n    mem[data] <- r\n",
			[]string{"r"}, 5, readsR, []Candidate{{Kind: Atomic, Op: at(6)}},
			head + "register r, t  # one\n    putmem_nbi(data, 2, data, c)\n    t <- amo_swap(1, 2, flag, c)\n    mem[data] <- r\n"},
		// No register at all: a declaration of its own after the last one.
		{"atomic without registers", head + "    putmem_nbi(data, 2, data, c)\n    putval(1, 2, flag, c)\n    mem[data] <- 1\n",
			nil, 4, store, []Candidate{{Kind: Atomic, Op: at(5)}, {Kind: Quiet, Queue: "c", At: at(6)}},
			head + "register t\n    putmem_nbi(data, 2, data, c)\n    t <- amo_swap(1, 2, flag, c)\n    quiet c\n    mem[data] <- 1\n"},
	}
	for _, tc := range cases {
		cmds := mpCmds()
		cmds[2] = tc.third
		p := shmemProgram(tc.src, tc.regs, []string{"c"}, []bool{true}, tc.first, cmds)
		a := analyse(p)
		ed, err := a.apply([]byte(tc.src), tc.set)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(ed.src) != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, ed.src, tc.want)
		}
		// Every statement of the input is still there, at a position
		// that maps back to it.
		for _, tr := range p.Trans {
			found := false
			for line := range ed.segs {
				for col := 1; col < 80; col++ {
					if o, ins, ok := ed.origin(pgas.Pos{Line: line, Col: col}); ok && !ins && o == tr.Pos {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("%s: the statement at %v maps from nowhere", tc.name, tr.Pos)
			}
		}
	}
}

// A candidate that names no operation of its kind is an error, not a
// silent edit: Repair's universe drops it.
func TestShmemEditsRefused(t *testing.T) {
	p := shmemProgram(mpSrc, []string{"r"}, []string{"c"}, []bool{true}, 5, mpCmds())
	a := analyse(p)
	at := func(l int) pgas.Pos { return pgas.Pos{Line: l, Col: 5} }
	for _, c := range []Candidate{{Kind: Blocking, Op: at(6)}, {Kind: Atomic, Op: at(5)}, {Kind: Sync, Op: at(5)}, {Kind: Wait, Op: at(5), At: at(6)}} {
		if _, err := a.apply([]byte(mpSrc), []Candidate{c}); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// Liveness: a guard reads the new value of its own register only; a
// register read on one branch is live before it.
func TestLiveRegs(t *testing.T) {
	guard := &pgas.Expr{Code: []pgas.Instr{{Op: pgas.XReg, Arg: 0}, {Op: pgas.XReg, Arg: 1}, {Op: pgas.XEq}}}
	p := &pgas.Program{Regs: []string{"a", "b", "c"}, Labels: []string{"0", "1", "2", "3"}, Trans: []pgas.Trans{
		{From: 0, To: 1, Cmd: pgas.Cmd{Op: pgas.OpLoad, Reg: 0, Addr: konst(0, "x"), Guard: guard}},
		{From: 1, To: 2, Cmd: pgas.Cmd{Op: pgas.OpAssign, Reg: 2, Val: konst(1, "1")}},
		{From: 1, To: 3, Cmd: pgas.Cmd{Op: pgas.OpAssume, Reg: -1, Val: regExpr(2, "c")}},
	}}
	live := analyse(p).liveRegs()
	want := [][]bool{{false, true, true}, {false, false, true}, {false, false, false}, {false, false, false}}
	for q := range want {
		if !slices.Equal(live[q], want[q]) {
			t.Errorf("state %d: live %v, want %v", q, live[q], want[q])
		}
	}
}

// The OpenSHMEM kinds are priced by name like the others; a fence costs
// less than a quiet by default, and the remedies that change an operation
// are priced at its line.
func TestShmemCosts(t *testing.T) {
	d := DefaultCosts()
	at := func(l int) pgas.Pos { return pgas.Pos{Line: l, Col: 5} }
	fence, quiet := Candidate{Kind: Fence, Queue: "c", At: at(6)}, Candidate{Kind: Quiet, Queue: "c", At: at(6)}
	if !(d.Of(fence) < d.Of(quiet) && d.Of(quiet) < d.Of(Candidate{Kind: Blocking, Op: at(5)})) {
		t.Errorf("default costs: fence %d, quiet %d", d.Of(fence), d.Of(quiet))
	}
	cs, err := ParseCosts("c", []byte("fence 7\nquiet 6 0\nblocking 5 1\natomic 9 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    Candidate
		want int64
	}{
		{fence, 7}, {Candidate{Kind: Quiet, Queue: "c", At: at(6)}, 0}, {Candidate{Kind: Quiet, Queue: "c", At: at(7)}, 2},
		{Candidate{Kind: Blocking, Op: at(5), At: at(6)}, 1}, {Candidate{Kind: Atomic, Op: at(9)}, 2}, {Candidate{Kind: Atomic, Op: at(8)}, 3},
	} {
		if got := cs.Of(tc.c); got != tc.want {
			t.Errorf("%+v: cost %d, want %d", tc.c, got, tc.want)
		}
	}
}
