package tso

import (
	"github.com/pgasrob/pgasrob/automata"
	"strings"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

func mustParse(t testing.TB, src string) *prog.Program {
	t.Helper()
	p, err := prog.ParseProgram("test.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const sbSrc = `thread t0
initial q0
transition q0 q1 write 1 0
transition q1 q2 read r 1
end
thread t1
initial q0
transition q0 q1 write 1 1
transition q1 q2 read r 0
end
`

// TestAttackEnumeration: SB has one store and one load per thread, so one
// attack per thread under TSO; under PSO the load or the store can be the
// last action, and the store can be "last" after itself only through a
// loop, which SB lacks, so still one reachable attack per thread plus one
// syntactically refuted (store, store) pair per thread.
func TestAttackEnumeration(t *testing.T) {
	p := mustParse(t, sbSrc)
	a, ref := enumerateAttacks(p, prog.TSO)
	if len(a) != 2 || ref[0] || ref[1] {
		t.Errorf("TSO attacks %v refuted %v, want 2 unrefuted", a, ref)
	}
	a, ref = enumerateAttacks(p, prog.PSO)
	n := 0
	for _, r := range ref {
		if !r {
			n++
		}
	}
	if len(a) != 4 || n != 2 {
		t.Errorf("PSO attacks %v refuted %v, want 4 of which 2 unrefuted", a, ref)
	}
	fenced := mustParse(t, strings.ReplaceAll(sbSrc, "transition q1 q2 read", "transition q1 q3 mfence\ntransition q3 q2 read"))
	_, ref = enumerateAttacks(fenced, prog.TSO)
	for i, r := range ref {
		if !r {
			t.Errorf("attack %d not refuted across an mfence", i)
		}
	}
}

func TestCheckSB(t *testing.T) {
	p := mustParse(t, sbSrc)
	for _, m := range []prog.Model{prog.TSO, prog.PSO} {
		r := check(p, m, Options{Jobs: 1, All: true})
		if r.Verdict != prog.NotRobust || r.Found != 2 {
			t.Fatalf("%v: %v with %d feasible attacks, want NOT ROBUST with both threads' attacks", m, r.Verdict, r.Found)
		}
		w := r.Witness
		if w == nil || r.WitnessErr != nil {
			t.Fatalf("%v: witness %v", m, r.WitnessErr)
		}
		// The cycle is the SB cycle: po, cf, po, cf.
		var kinds []string
		for _, e := range w.Cycle {
			kinds = append(kinds, e.Kind.String())
		}
		if got := strings.Join(kinds, " "); got != "po cf po cf" {
			t.Errorf("%v: cycle %s, want po cf po cf\n%s", m, got, w.Format(p))
		}
	}
}

// TestBudgets: a budget that runs out gives UNKNOWN with a reason, never a
// verdict.
func TestBudgets(t *testing.T) {
	p := mustParse(t, gen.Ring(5))
	r := check(p, prog.TSO, Options{NoPrune: true, MaxStates: 10, Jobs: 2})
	if r.Verdict != prog.Unknown || !strings.Contains(r.Reason, "state budget") {
		t.Errorf("state budget: %v %q", r.Verdict, r.Reason)
	}
	r = check(p, prog.TSO, Options{NoPrune: true, MaxBytes: 1, Jobs: 1})
	if r.Verdict != prog.Unknown || !strings.Contains(r.Reason, "memory budget") {
		t.Errorf("memory budget: %v %q", r.Verdict, r.Reason)
	}
	r = check(mustParse(t, gen.Ring(7)), prog.TSO, Options{NoPrune: true, Timeout: time.Millisecond, Jobs: 1})
	if r.Verdict != prog.Unknown {
		t.Errorf("time budget: %v %q", r.Verdict, r.Reason)
	}
}

// TestValueWidening: a counter up to 100 does not fit the first 4-bit
// domain; the check widens instead of answering wrongly. The program is SB
// where t1 only stores after counting to 100, so it is not robust.
func TestValueWidening(t *testing.T) {
	src := `thread t0
initial q0
transition q0 q1 write 1 0
transition q1 q2 read r 1
end
thread t1
initial q0
transition q0 q0 local c + c 1
transition q0 q1 check == c 100
transition q1 q2 write c 1
transition q2 q3 read r 0
end
`
	r := check(mustParse(t, src), prog.TSO, Options{Jobs: 1})
	if r.Verdict != prog.NotRobust {
		t.Fatalf("%v (%s)", r.Verdict, r.Reason)
	}
	r = check(mustParse(t, src), prog.TSO, Options{Jobs: 1, ValueBits: 4})
	if r.Verdict == prog.Robust {
		t.Fatalf("4-bit values must not give a verdict that ignores overflow: %v", r.Verdict)
	}
	// An unbounded counter never fits: UNKNOWN, not ROBUST.
	unbounded := `thread t0
initial q0
transition q0 q0 local c + c 1
transition q0 q1 write c 0
transition q1 q2 mfence
transition q2 q3 read r 1
end
thread t1
initial q0
transition q0 q1 write 1 1
end
`
	r = check(mustParse(t, unbounded), prog.TSO, Options{Jobs: 1, NoPrune: true, MaxStates: 1 << 20})
	if r.Verdict != prog.Unknown {
		t.Fatalf("unbounded counter: %v, want UNKNOWN", r.Verdict)
	}
}

// TestBadAddress: an address computed at run time outside the memory makes
// the answer UNKNOWN, not a verdict that silently drops the behaviour.
func TestBadAddress(t *testing.T) {
	src := `memory_size 2
thread t0
initial q0
transition q0 q1 write 1 0
transition q1 q2 local a 5
transition q2 q3 read r a
end
thread t1
initial q0
transition q0 q1 write 1 1
end
`
	r := check(mustParse(t, src), prog.TSO, Options{Jobs: 1})
	if r.Verdict != prog.Unknown || !strings.Contains(r.Reason, "outside the memory") {
		t.Fatalf("%v %q", r.Verdict, r.Reason)
	}
}

// TestReachSC: the plain SC system reaches the state where both SB threads
// are done, and never a label a thread does not have.
func TestReachSC(t *testing.T) {
	p := mustParse(t, sbSrc)
	res := reachSC(p, func(l []int) bool { return l[0] == 2 && l[1] == 2 }, Options{})
	if res.Outcome != 1 {
		t.Fatalf("both threads can finish: %v", res.Outcome)
	}
	res = reachSC(p, func(l []int) bool { return l[0] > 2 || l[1] > 2 }, Options{})
	if res.Outcome != 0 || res.Stats.States == 0 {
		t.Fatalf("reached a label that does not exist: %v", res.Outcome)
	}
}

// TestWitnessReplayCatchesErrors: a witness path that does not follow the
// program (here: one step dropped) must fail its replay instead of being
// shown.
func TestWitnessReplayCatchesErrors(t *testing.T) {
	p := mustParse(t, sbSrc)
	r := check(p, prog.TSO, Options{Jobs: 1})
	var ar *AttackResult
	for i := range r.Attacks {
		if r.Attacks[i].Outcome == Feasible {
			ar = &r.Attacks[i]
		}
	}
	if ar == nil {
		t.Fatal("no feasible attack in SB")
	}
	if _, err := buildWitness(p, prog.TSO, ar); err != nil {
		t.Fatalf("intact path: %v", err)
	}
	for drop := 1; drop < len(ar.path); drop++ {
		bad := *ar
		bad.path = append(append([]automata.Step(nil), ar.path[:drop]...), ar.path[drop+1:]...)
		if _, err := buildWitness(p, prog.TSO, &bad); err == nil {
			t.Errorf("dropping step %d of %d still replays", drop, len(ar.path))
		}
	}
}
