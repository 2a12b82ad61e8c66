package prog

import (
	"strings"
	"testing"
)

// TestMachineTSO replays the computation of Fig. 3 of
// tso-robustness-attacks.md on SB and checks values and the trace.
func TestMachineTSO(t *testing.T) {
	p := mustParse(t, sbSrc)
	mc := NewMachine(p, TSO)
	steps := []func() error{
		func() error { return mc.Exec(0, 0) }, // t0 isu x:=1
		func() error { return mc.Exec(0, 1) }, // t0 ld y = 0
		func() error { return mc.Exec(1, 0) }, // t1 isu y:=1
		func() error { return mc.Flush(1) },   // t1 st y
		func() error { return mc.Exec(1, 1) }, // t1 ld x = 0
		func() error { return mc.Flush(0) },   // t0 st x
	}
	for i, s := range steps {
		if err := s(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if mc.Regs[0][0] != 0 || mc.Regs[1][0] != 0 {
		t.Fatalf("registers %v, want both 0", mc.Regs)
	}
	c := FindCycle(len(mc.Events), HappensBefore(mc.Events), -1)
	if len(c) != 4 {
		t.Fatalf("cycle %v, want the 4-edge SB cycle", c)
	}
	// The same computation with t0's store landing before t1's load is SC.
	mc = NewMachine(p, TSO)
	for _, s := range []func() error{
		func() error { return mc.Exec(0, 0) }, func() error { return mc.Flush(0) },
		func() error { return mc.Exec(0, 1) }, func() error { return mc.Exec(1, 0) },
		func() error { return mc.Flush(1) }, func() error { return mc.Exec(1, 1) },
	} {
		if err := s(); err != nil {
			t.Fatal(err)
		}
	}
	if mc.Regs[1][0] != 1 {
		t.Fatalf("t1 read %d, want 1", mc.Regs[1][0])
	}
	if c := FindCycle(len(mc.Events), HappensBefore(mc.Events), -1); c != nil {
		t.Fatalf("SC computation with a cycle: %v", c)
	}
}

func TestMachineRules(t *testing.T) {
	src := `thread t
initial q0
transition q0 q1 write 5 0
transition q1 q2 read r 0
transition q2 q3 mfence
transition q3 q4 fence 0
transition q4 q5 write 6 1
transition q5 q6 write 7 0
transition q6 q7 fence 0
end
`
	p := mustParse(t, src)
	for _, m := range []Model{TSO, PSO} {
		mc := NewMachine(p, m)
		if err := mc.Exec(0, 0); err != nil {
			t.Fatal(err)
		}
		// Early read from the own buffer.
		if err := mc.Exec(0, 1); err != nil || mc.Regs[0][0] != 5 || !mc.Events[1].Early {
			t.Fatalf("%v: early read: %v, r = %d", m, err, mc.Regs[0][0])
		}
		if err := mc.Exec(0, 2); err == nil {
			t.Fatalf("%v: mfence with a full buffer", m)
		}
		if err := mc.Drain(0); err != nil {
			t.Fatal(err)
		}
		if err := mc.Exec(0, 2); err != nil {
			t.Fatalf("%v: mfence with an empty buffer: %v", m, err)
		}
		for k := 3; k <= 5; k++ {
			if err := mc.Exec(0, k); err != nil {
				t.Fatalf("%v: transition %d: %v", m, k, err)
			}
		}
		// The address-list fence on 0 needs the per-address buffer of 0
		// empty under PSO; under TSO it is a no-op.
		err := mc.Exec(0, 6)
		if m == PSO && (err == nil || !strings.Contains(err.Error(), "per-address")) {
			t.Fatalf("PSO fence with a store to its address buffered: %v", err)
		}
		if m == TSO && err != nil {
			t.Fatalf("TSO fence: %v", err)
		}
		if m == PSO {
			// PSO: the store to 0 (issued after the store to 1) may reach
			// memory first.
			if err := mc.Advance(0, 0); err != nil {
				t.Fatal(err)
			}
			// The fence at q3 still waits at the head of the FIFO.
			if err := mc.Flush(0); err != nil || mc.Mem[0] != 5 {
				t.Fatalf("PSO fence action: %v, mem %v", err, mc.Mem)
			}
			if err := mc.Flush(0); err != nil || mc.Mem[0] != 7 || mc.Mem[1] != 0 {
				t.Fatalf("PSO reordering: %v, mem %v", err, mc.Mem)
			}
		}
	}
}

func TestLockMachine(t *testing.T) {
	src := `thread a
initial q0
transition q0 q1 lock
transition q1 q2 write 1 0
transition q2 q3 unlock
end
thread b
initial q0
transition q0 q1 read r 0
end
`
	p := mustParse(t, src)
	mc := NewMachine(p, TSO)
	if err := mc.Exec(0, 0); err != nil {
		t.Fatal(err)
	}
	if err := mc.Exec(1, 0); err == nil {
		t.Fatal("b ran while a held the lock")
	}
	if err := mc.Exec(0, 1); err != nil {
		t.Fatal(err)
	}
	if err := mc.Exec(0, 2); err == nil {
		t.Fatal("unlock with a full buffer")
	}
	if err := mc.Flush(0); err != nil {
		t.Fatal(err)
	}
	if err := mc.Exec(0, 2); err != nil {
		t.Fatal(err)
	}
	if err := mc.Exec(1, 0); err != nil || mc.Regs[1][0] != 1 {
		t.Fatalf("b after unlock: %v, r = %d", err, mc.Regs[1][0])
	}
}

// TestHappensBeforeMP: the PSO computation of message passing where the
// data store lands last has the cycle st d ->po st f ->src ld f ->po ld d
// ->cf st d.
func TestHappensBeforeMP(t *testing.T) {
	evs := []Event{
		{Kind: EvStore, Thread: 0, Cell: 0, Val: 1, Land: 1, Src: -1},         // 0: st d
		{Kind: EvStore, Thread: 0, Cell: 1, Val: 1, Land: 0, Src: -1, Seq: 1}, // 1: st f
		{Kind: EvLoad, Thread: 1, Cell: 1, Val: 1, Src: 1, Land: -1},          // 2: ld f
		{Kind: EvLoad, Thread: 1, Cell: 0, Val: 0, Src: -1, Land: -1, Seq: 1}, // 3: ld d
	}
	edges := HappensBefore(evs)
	want := map[Edge]bool{{0, 1, EdgePO}: true, {2, 3, EdgePO}: true, {1, 2, EdgeSRC}: true, {3, 0, EdgeCF}: true}
	if len(edges) != len(want) {
		t.Fatalf("edges %v, want %v", edges, want)
	}
	for _, e := range edges {
		if !want[e] {
			t.Errorf("unexpected edge %v", e)
		}
	}
	c := FindCycle(4, edges, 0)
	if len(c) != 4 || c[0].From != 0 {
		t.Fatalf("cycle %v", c)
	}
	// If the data store lands first, ld d must have read it: no cycle.
	evs[0].Land, evs[1].Land = 0, 1
	evs[3].Src, evs[3].Val = 0, 1
	if c := FindCycle(4, HappensBefore(evs), -1); c != nil {
		t.Fatalf("acyclic trace reported cyclic: %v", c)
	}
}
