package normalform

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The rules of Y for the OpenSHMEM commands (ctx.go), on straight-line
// programs built by hand: every rank runs cmds in order on one context c,
// over addresses x (0) and y (1), with register r (0). Expected languages
// come from the table in docs/deviations.md, "The normal form with
// contexts", and docs/shmem-calculus.md.

func num(v int64) *pgas.Expr {
	return &pgas.Expr{Code: []pgas.Instr{{Op: pgas.XConst, Arg: v}}, Src: fmt.Sprint(v)}
}

func ctxProgram(values int, cmds ...pgas.Cmd) *pgas.Program {
	p := &pgas.Program{Name: "ctx", Values: values, Addrs: []string{"x", "y"}, Regs: []string{"r"},
		Queues: []string{"c"}, Ctx: []bool{true}, Out: make([][]int, len(cmds)+1)}
	for i, c := range cmds {
		p.Labels = append(p.Labels, fmt.Sprintf("L%d", i))
		p.Trans = append(p.Trans, pgas.Trans{From: i, To: i + 1, Cmd: c, Text: p.CmdString(c)})
		p.Out[i] = []int{i}
	}
	p.Labels = append(p.Labels, "END")
	return p
}

const cx, cy = 0, 1

// putVal is shmem_p of v to address a of rank k.
func putVal(v, k, a int64) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpSend, Reg: -1, Val: num(v), Rank: num(k), Remote: num(a), Queue: num(0)}
}

func putMem(loc, k, a int64, blocking bool) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpSend, Reg: -1, Local: num(loc), Rank: num(k), Remote: num(a), Queue: num(0), Blocking: blocking}
}

func getNbi(loc, k, a int64) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpRecv, Reg: -1, Local: num(loc), Rank: num(k), Remote: num(a), Queue: num(0)}
}

func ctxCmd(op pgas.Op) pgas.Cmd { return pgas.Cmd{Op: op, Reg: -1, Queue: num(0)} }

func atomic(amo pgas.AmoOp, k, a int64, val, cmp *pgas.Expr) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpAtomic, Reg: 0, Amo: amo, Rank: num(k), Remote: num(a), Val: val, Val2: cmp, Queue: num(0)}
}

// heads returns, for each complete computation (every command issued),
// the part (1..4) of each event whose rendering starts with one of want,
// in the order of want.
func heads(t *testing.T, p *pgas.Program, n int, want ...string) map[string]bool {
	t.Helper()
	y, err := New(p, n)
	if err != nil {
		t.Fatal(err)
	}
	y.AllParts = true // the rules alone, without the settled-popa rule
	out := map[string]bool{}
	for s := range language(t, y) {
		parts := strings.Split(s, " | ")
		got := make([]string, len(want))
		for h, part := range parts {
			for _, w := range strings.Fields(part) {
				for i, pre := range want {
					if strings.HasPrefix(w, pre) && got[i] == "" {
						got[i] = fmt.Sprint(h + 1)
					}
				}
			}
		}
		if !strings.Contains(strings.Join(got, ","), ",,") && got[0] != "" && got[len(got)-1] != "" {
			out[strings.Join(got, " ")] = true
		}
	}
	return out
}

// TestCtxNoFieldsWithoutCommands: declaring a context adds no field.
func TestCtxNoFieldsWithoutCommands(t *testing.T) {
	store := pgas.Cmd{Op: pgas.OpStore, Reg: -1, Addr: num(cx), Val: num(1)}
	with := ctxProgram(2, store)
	without := ctxProgram(2, store)
	without.Ctx = nil
	a, _ := New(with, 3)
	b, _ := New(without, 3)
	if a.ctx != nil || a.Words() != b.Words() || a.layout.Bits() != b.layout.Bits() {
		t.Errorf("a declared but unused context changes the layout: %d bits, want %d", a.layout.Bits(), b.layout.Bits())
	}
	c, _ := New(ctxProgram(2, putVal(1, 1, cx)), 3)
	if c.ctx == nil || c.layout.Bits() <= b.layout.Bits() {
		t.Error("a program with a send has no context fields")
	}
}

// TestCtxFence: without a fence the two puts to rank 1 land in any parts;
// with one, the second popb never lies in an earlier part than the first.
// A put to another rank is not ordered by the fence.
func TestCtxFence(t *testing.T) {
	un := heads(t, ctxProgram(2, putVal(1, 1, cx), putVal(1, 1, cy)), 1, "popb1(1,0)", "popb1(1,1)")
	fenced := heads(t, ctxProgram(2, putVal(1, 1, cx), ctxCmd(pgas.OpFence), putVal(1, 1, cy)), 1, "popb1(1,0)", "popb1(1,1)")
	other := heads(t, ctxProgram(2, putVal(1, 2, cx), ctxCmd(pgas.OpFence), putVal(1, 1, cy)), 2, "popb1(2,0)", "popb1(1,1)")
	if len(un) != 16 || !un["3 2"] {
		t.Errorf("unfenced puts: parts %v, want all 16 pairs", un)
	}
	if len(fenced) != 10 || fenced["3 2"] || !fenced["2 2"] {
		t.Errorf("fenced puts: parts %v, want the 10 pairs with the first popb not later", fenced)
	}
	if len(other) != 16 {
		t.Errorf("puts to two ranks across a fence: parts %v, want all 16 pairs", other)
	}
}

// TestCtxQuiet: quiet is enabled only when every item of the context was
// delivered in τ1; recvs count, and a fetching atomic waits only for the
// sends of earlier epochs to its rank.
func TestCtxQuiet(t *testing.T) {
	for name, tc := range map[string]struct {
		p    *pgas.Program
		want []string
		ok   map[string]bool
	}{
		"put quiet": {ctxProgram(2, putVal(1, 1, cx), ctxCmd(pgas.OpQuiet)), []string{"popb1", "quiet1"}, map[string]bool{"1 1": true}},
		"get quiet": {ctxProgram(2, getNbi(cx, 1, cy), ctxCmd(pgas.OpQuiet)), []string{"popa1", "popb1", "quiet1"}, map[string]bool{"1 1 1": true}},
		"put fence fetch": {ctxProgram(2, putVal(1, 1, cx), ctxCmd(pgas.OpFence), atomic(pgas.AmoFetch, 1, cy, nil, nil)),
			[]string{"popb1", "afetch1"}, map[string]bool{"1 1": true}},
		"put fetch": {ctxProgram(2, putVal(1, 1, cx), atomic(pgas.AmoFetch, 1, cy, nil, nil)),
			[]string{"popb1", "afetch1"}, map[string]bool{"1 1": true, "2 1": true, "3 1": true, "4 1": true}},
	} {
		got := heads(t, tc.p, 1, tc.want...)
		if fmt.Sprint(got) != fmt.Sprint(tc.ok) {
			t.Errorf("%s: parts %v, want %v", name, got, tc.ok)
		}
	}
}

// TestCtxSendParts: a blocking put reads its source at issue, a
// non-blocking one in any part up to its popb, an immediate one has no
// popa, and the signal of put-with-signal is delivered after its data.
func TestCtxSendParts(t *testing.T) {
	blocking := heads(t, ctxProgram(2, putMem(cx, 1, cy, true)), 1, "popa1", "popb1")
	nbi := heads(t, ctxProgram(2, putMem(cx, 1, cy, false)), 1, "popa1", "popb1")
	if len(blocking) != 4 || !blocking["1 4"] || blocking["2 2"] {
		t.Errorf("blocking put: parts %v, want popa in 1, popb anywhere", blocking)
	}
	if len(nbi) != 10 || nbi["2 1"] {
		t.Errorf("non-blocking put: parts %v, want the 10 pairs m ≤ n", nbi)
	}
	y, _ := New(ctxProgram(2, putVal(1, 1, cx)), 1)
	for s := range language(t, y) {
		if strings.Contains(s, "popa") {
			t.Errorf("immediate put with a popa: %s", s)
		}
	}
	sig := putVal(1, 1, cy)
	sig.After = true
	after := heads(t, ctxProgram(2, putVal(1, 1, cx), sig), 1, "popb1(1,0)", "popb1(1,1)")
	if len(after) != 10 || after["2 1"] {
		t.Errorf("signal: parts %v, want the signal never before its data", after)
	}
}

// TestCtxChainParts: put-with-signal of two data elements, x and z (the
// second a Chain send), then the signal to y. The signal's popb part is
// at least both data parts: Σ_{n=1..4} n² = 30 triples (n_x, n_z, n_sig).
// Without Chain the signal follows z only: 4 · 10 = 40 triples, among
// them n_sig < n_x.
func TestCtxChainParts(t *testing.T) {
	for _, chain := range []bool{true, false} {
		z := putVal(1, 1, 2)
		z.Chain = chain
		sig := putVal(1, 1, cy)
		sig.After = true
		p := ctxProgram(2, putVal(1, 1, cx), z, sig)
		p.Addrs = append(p.Addrs, "z")
		got := heads(t, p, 1, "popb1(1,0)", "popb1(1,2)", "popb1(1,1)")
		bad := 0
		for k := range got {
			var nx, nz, ns int
			fmt.Sscan(k, &nx, &nz, &ns)
			if ns < nz || chain && ns < nx {
				t.Errorf("chain %v: signal in part %d before its data (%s)", chain, ns, k)
			}
			if ns < nx {
				bad++
			}
		}
		want := map[bool]int{true: 30, false: 40}[chain]
		if len(got) != want || !chain && bad == 0 {
			t.Errorf("chain %v: %d part triples (%d with the signal before x), want %d", chain, len(got), bad, want)
		}
	}
}

// TestCtxMemory: a delivery in τ1 writes memory at the issue (an add
// modulo values), a fetching atomic returns the old value, writes only
// when it succeeds, and its guard is checked with Reg = the old value.
// With values 3: x := 2; add 2 (x = 1 if delivered in τ1, else still 2);
// cswap(cmp 0, new 2) fails either way (afetch) and returns x; assume it
// was 1; swap x := 0 guarded by old ≠ 0; assume it returned 1 (the failed
// cswap wrote nothing); load x; assume it is 0.
func TestCtxMemory(t *testing.T) {
	add := putVal(2, 1, cx)
	add.Amo = pgas.AmoAdd
	reg := &pgas.Expr{Code: []pgas.Instr{{Op: pgas.XReg, Arg: 0}}, Src: "r"}
	store := pgas.Cmd{Op: pgas.OpStore, Reg: -1, Addr: num(cx), Val: num(2)}
	cswap := atomic(pgas.AmoCSwap, 1, cx, num(2), num(0))
	guarded := atomic(pgas.AmoSwap, 1, cx, num(0), nil)
	guarded.Guard = reg
	load := pgas.Cmd{Op: pgas.OpLoad, Reg: 0, Addr: num(cx)}
	assume := func(v int64) pgas.Cmd {
		return pgas.Cmd{Op: pgas.OpAssume, Reg: -1, Val: &pgas.Expr{Code: []pgas.Instr{{Op: pgas.XReg, Arg: 0}, {Op: pgas.XConst, Arg: v}, {Op: pgas.XEq}}}}
	}
	y, _ := New(ctxProgram(3, store, add, cswap, assume(1), guarded, assume(1), load, assume(0)), 1)
	complete := false
	for s := range language(t, y) {
		if strings.Contains(s, "afetch1(1,0) assume1") && !strings.HasPrefix(s, "store1(1,0) write1 popb1(1,0) afetch1(1,0) assume1") {
			t.Errorf("the cswap returned 1 with the add not delivered in τ1: %s", s)
		}
		complete = complete || strings.HasSuffix(s, "afetch1(1,0) assume1 amo1(1,0) assume1 load1(1,0) assume1 |  |  | ")
	}
	if !complete {
		t.Error("no computation runs to the end: the add, the failed cswap or the guarded swap is wrong")
	}
}

// TestNumberItems: the pops of a context item name the index of its issue
// among the rank's non-pop events; other events keep 0.
func TestNumberItems(t *testing.T) {
	store := pgas.Cmd{Op: pgas.OpStore, Reg: -1, Addr: num(cx), Val: num(1)}
	p := ctxProgram(2, store, putMem(cx, 2, cy, false), ctxCmd(pgas.OpFence), getNbi(cy, 2, cx))
	y, _ := New(p, 2)
	var sigma []HEvent
	s := make([]uint64, y.Words())
	y.Initial(s)
	for {
		moves, _ := y.Moves(s)
		if len(moves) == 0 {
			break
		}
		mv := moves[len(moves)-1] // rank 2 first, pops in part 4
		sigma = append(sigma, mv.Events...)
		s = mv.Target
	}
	tau, _ := y.Computation(sigma)
	items := map[string][]int{}
	for _, e := range tau {
		k := fmt.Sprintf("%s%d", e.Kind, e.Rank)
		items[k] = append(items[k], e.Item)
	}
	want := map[string][]int{"popa1": {1, 3}, "popb1": {1, 3}, "popa2": {1, 3}, "popb2": {1, 3},
		"store1": {0}, "store2": {0}, "write1": {0}, "write2": {0}, "fence1": {0}, "fence2": {0}, "read1": {0}, "read2": {0}}
	if fmt.Sprint(items) != fmt.Sprint(want) {
		t.Errorf("items %v, want %v", items, want)
	}
	for _, he := range sigma {
		if he.Event.Item != 0 {
			t.Fatal("Y.Computation changed its argument")
		}
	}
}

// TestCtxBitwiseMemory: bitwise atomics in Y. With values 4: x := 1; or 2
// (x = 3 if delivered in τ1); fetch_xor 1, assume it returned 3 (so the or
// was delivered first) and wrote 2; load x, assume 2.
func TestCtxBitwiseMemory(t *testing.T) {
	store := pgas.Cmd{Op: pgas.OpStore, Reg: -1, Addr: num(cx), Val: num(1)}
	or := putVal(2, 1, cx)
	or.Amo = pgas.AmoOr
	xor := atomic(pgas.AmoXor, 1, cx, num(1), nil)
	load := pgas.Cmd{Op: pgas.OpLoad, Reg: 0, Addr: num(cx)}
	assume := func(v int64) pgas.Cmd {
		return pgas.Cmd{Op: pgas.OpAssume, Reg: -1, Val: &pgas.Expr{Code: []pgas.Instr{{Op: pgas.XReg, Arg: 0}, {Op: pgas.XConst, Arg: v}, {Op: pgas.XEq}}}}
	}
	y, _ := New(ctxProgram(4, store, or, xor, assume(3), load, assume(2)), 1)
	complete := false
	for s := range language(t, y) {
		if strings.Contains(s, "amo1(1,0) assume1") && !strings.HasPrefix(s, "store1(1,0) write1 popb1(1,0) amo1(1,0) assume1") {
			t.Errorf("the xor returned 3 without the or delivered before it: %s", s)
		}
		complete = complete || strings.HasSuffix(s, "amo1(1,0) assume1 load1(1,0) assume1 |  |  | ")
	}
	if !complete {
		t.Error("no computation runs to the end: or, fetch_xor or their values are wrong")
	}
}
