package family

import "fmt"

// Work-stealing queues in the shape of the persistence paper's queue
// benchmarks (Chase-Lev; the idempotent FIFO and LIFO queues of Michael,
// Vechev and Saraswat, PPoPP 2009), written from the published
// pseudo-code, issue 35 item 4. Every generator takes
//
//	thieves: how many thief threads (>= 1), each stealing again and again;
//	ops:     how many items the owner puts (>= 1; IdemLIFO also takes 0,
//	         an owner that loops); it then takes as many
//	         times, so it runs 2*ops operations and stops;
//	size:    the buffer's capacity (>= 1); a put that finds it full skips.
//
// Items are the values 1..ops. A compare-and-swap is a locked section
// (lock; read; check; write; unlock), as the x86 CAS is a locked
// instruction; on failure the thief starts its steal again. The owner's
// code is straight-line (one copy of put or take per operation), so each
// program is finite-state: the thieves' loops revisit states.

// seq numbers the labels of a straight-line owner: q0, o1, o2, ...
type seq struct {
	t *thread
	n int
}

func (s *seq) cur() string {
	if s.n == 0 {
		return "q0" // the initial label program writes
	}
	return fmt.Sprintf("o%d", s.n)
}
func (s *seq) next() string { s.n++; return s.cur() }

// step adds one transition from the current label to a fresh one.
func (s *seq) step(instr string, args ...any) {
	from := s.cur()
	s.t.tr(from, s.next(), instr, args...)
}

// branch adds "check cond" from the current label to label to.
func (s *seq) branch(to, cond string, args ...any) {
	s.t.tr(s.cur(), to, "check "+cond, args...)
}

// join jumps from label from to the current label.
func (s *seq) join(from string) { s.t.tr(from, s.cur(), "noop") }

// cas writes the thief's compare-and-swap of cell addr from register
// old to the expression to (both in the thief's registers), from label
// at; success goes on at ok, failure starts again at q0.
func cas(t *thread, at, ok string, addr int, old, to string) {
	t.tr(at, at+"L", "lock")
	t.tr(at+"L", at+"R", "read c %d", addr)
	t.tr(at+"R", at+"F", "check != c %s", old)
	t.tr(at+"F", "q0", "unlock")
	t.tr(at+"R", at+"W", "check == c %s", old)
	t.tr(at+"W", at+"U", "write %s %d", to, addr)
	t.tr(at+"U", ok, "unlock")
}

func queueArgs(kind string, thieves, ops, size int) {
	if thieves < 1 || ops < 1 || size < 1 {
		panic(fmt.Sprintf("family.%s(%d, %d, %d): every parameter must be at least 1", kind, thieves, ops, size))
	}
}

func queueProgram(title string, verdict string, thieves, ops, size, cells int, own *thread, thief func() *thread) string {
	bodies := []*thread{own}
	for i := 0; i < thieves; i++ {
		bodies = append(bodies, thief())
	}
	nm := append([]string{"owner"}, names("thief", thieves)...)
	return program(fmt.Sprintf("%s, %d thieves, %d puts then %d takes, buffer %d: %s", title, thieves, ops, ops, size, verdict),
		cells, nm, bodies)
}

// ChaseLev is the Chase-Lev deque (SPAA 2005) with a buffer of size
// cells used circularly (size must be a power of two: indices are masked
// with size-1), as published, without the fence in take. Cells: top at
// 0, bottom at 1, the buffer from 2 on.
//
//	put(x): b := bottom; t := top; if b-t >= size: full
//	        buf[b mod size] := x; bottom := b+1
//	take(): b := bottom-1; bottom := b; t := top        # no fence
//	        if t > b: bottom := b+1; empty
//	        x := buf[b mod size]
//	        if t == b: (CAS top t -> t+1, failure: empty); bottom := b+1
//	steal(): t := top; b := bottom; if t >= b: empty
//	        x := buf[t mod size]; CAS top t -> t+1, failure: retry
//
// Not robust for ops >= 2 and any thieves and size >= 1 (ops >= 2 makes
// the first take find an item at b = 1): a thief steals item 1 (CAS top
// 0 -> 1) and starts another steal, reading bottom = 2 from memory while
// the owner's take has bottom := 1 in its buffer and reads top = 0 from
// memory before the CAS lands. Happens-before cycle: owner's store to
// bottom ->po its load of top ->cf (reads the value before) the thief's
// CAS store to top ->po the thief's next load of bottom ->cf (reads the
// value before) the owner's store to bottom.
func ChaseLev(thieves, ops, size int) string {
	queueArgs("ChaseLev", thieves, ops, size)
	if size&(size-1) != 0 {
		panic(fmt.Sprintf("family.ChaseLev: size %d is not a power of two", size))
	}
	mask := size - 1
	s := &seq{t: &thread{}}
	for i := 1; i <= ops; i++ {
		s.step("read b 1")
		s.step("read t 0")
		at := s.cur()
		s.step("check < - b t %d", size)
		s.step("write %d + 2 & b %d", i, mask)
		s.step("write + b 1 1")
		full := s.cur()
		s.t.tr(at, full, "check >= - b t %d", size)
	}
	for i := 0; i < ops; i++ {
		s.step("read b 1")
		s.step("local b - b 1")
		s.step("write b 1")
		s.step("read t 0")
		at := s.cur()
		s.step("check <= t b")
		s.step("read x + 2 & b %d", mask)
		mid := s.cur()
		s.step("check != t b") // more than one item left: done
		done := s.cur()
		// Last item: race the thieves for it.
		s.t.tr(mid, fmt.Sprintf("z%dL", i), "check == t b")
		s.t.tr(fmt.Sprintf("z%dL", i), fmt.Sprintf("z%dR", i), "lock")
		s.t.tr(fmt.Sprintf("z%dR", i), fmt.Sprintf("z%dC", i), "read c 0")
		s.t.tr(fmt.Sprintf("z%dC", i), fmt.Sprintf("z%dW", i), "check == c t")
		s.t.tr(fmt.Sprintf("z%dW", i), fmt.Sprintf("z%dU", i), "write + t 1 0")
		s.t.tr(fmt.Sprintf("z%dC", i), fmt.Sprintf("z%dU", i), "check != c t")
		s.t.tr(fmt.Sprintf("z%dU", i), fmt.Sprintf("z%dB", i), "unlock")
		s.t.tr(fmt.Sprintf("z%dB", i), done, "write + b 1 1")
		// Empty: restore bottom.
		s.t.tr(at, fmt.Sprintf("e%d", i), "check > t b")
		s.t.tr(fmt.Sprintf("e%d", i), done, "write + b 1 1")
	}
	thief := func() *thread {
		t := &thread{}
		t.tr("q0", "s1", "read t 0")
		t.tr("s1", "s2", "read b 1")
		t.tr("s2", "q0", "check >= t b")
		t.tr("s2", "s3", "check < t b")
		t.tr("s3", "s4", "read x + 2 & t %d", mask)
		cas(t, "s4", "q0", 0, "t", "+ t 1")
		return t
	}
	return queueProgram("Chase-Lev work-stealing deque without the take fence", "not robust",
		thieves, ops, size, 2+size, s.t, thief)
}

// IdemFIFO is the idempotent FIFO work-stealing queue (Michael et al.,
// Fig. 2) with a circular buffer of size cells (a power of two). Cells:
// head at 0, tail at 1, the buffer from 2 on.
//
//	put(x): h := head; t := tail; if t == h+size: full
//	        buf[t mod size] := x; tail := t+1
//	take(): h := head; t := tail; if h == t: empty
//	        x := buf[h mod size]; head := h+1
//	steal(): h := head; t := tail; if h == t: empty
//	        x := buf[h mod size]; CAS head h -> h+1, failure: retry
//
// Not robust for ops >= 2, size >= 2 and any thieves: after put 1 has
// reached memory, put 2 leaves tail := 2 in the owner's buffer and the
// owner's first take reads head = 0 from memory; meanwhile a thief steals
// item 1 (CAS head 0 -> 1) and starts another steal, reading tail = 1
// from memory. Cycle: owner's store to tail ->po its load of head ->cf
// the thief's CAS store to head ->po its next load of tail ->cf the
// owner's store to tail. (The owner's take then also takes item 1: the
// queue allows a task to be taken twice, which is its point.)
func IdemFIFO(thieves, ops, size int) string {
	queueArgs("IdemFIFO", thieves, ops, size)
	if size&(size-1) != 0 {
		panic(fmt.Sprintf("family.IdemFIFO: size %d is not a power of two", size))
	}
	mask := size - 1
	s := &seq{t: &thread{}}
	for i := 1; i <= ops; i++ {
		s.step("read h 0")
		s.step("read t 1")
		at := s.cur()
		s.step("check != t + h %d", size)
		s.step("write %d + 2 & t %d", i, mask)
		s.step("write + t 1 1")
		s.t.tr(at, s.cur(), "check == t + h %d", size)
	}
	for i := 0; i < ops; i++ {
		s.step("read h 0")
		s.step("read t 1")
		at := s.cur()
		s.step("check != h t")
		s.step("read x + 2 & h %d", mask)
		s.step("write + h 1 0")
		s.t.tr(at, s.cur(), "check == h t")
	}
	thief := func() *thread {
		t := &thread{}
		t.tr("q0", "s1", "read h 0")
		t.tr("s1", "s2", "read t 1")
		t.tr("s2", "q0", "check == h t")
		t.tr("s2", "s3", "check != h t")
		t.tr("s3", "s4", "read x + 2 & h %d", mask)
		cas(t, "s4", "q0", 0, "h", "+ h 1")
		return t
	}
	return queueProgram("idempotent FIFO work-stealing queue", "not robust",
		thieves, ops, size, 2+size, s.t, thief)
}

// IdemLIFO is the idempotent LIFO work-stealing queue (Michael et al.,
// Fig. 3) with its anchor <tail, tag> in two cells, tail at 0 and tag at
// 1, the buffer of size cells from 2 on. The thief's compare-and-swap is
// a double-word one: it compares both words and writes both. The owner's
// take writes the tail word only, since its tag word keeps its value.
//
//	put(x): t := tail; g := tag; if t == size: full
//	        buf[t] := x; tail := t+1; tag := g+1
//	take(): t := tail; g := tag; if t == 0: empty
//	        x := buf[t-1]; tail := t-1
//	steal(): t := tail; g := tag; if t == 0: empty
//	        x := buf[t-1]; CAS <tail,tag> <t,g> -> <t-1,g>, failure: retry
//
// Not robust for ops >= 2, size >= 2 and any thieves: once puts 1 and 2
// have reached memory (<2,2>), the owner's first take leaves tail := 1
// in its buffer, and its second take reads tail = 1 from the buffer and
// tag = 2 from memory before a thief's CAS <2,2> -> <1,2> lands; that
// thief then starts another steal and reads tail = 1 written by its CAS,
// before the owner's tail := 1 reaches memory. Cycle: owner's store to
// tail ->po its load of tag ->cf the CAS's store to tag ->po the thief's
// next load of tail ->cf (reads a store ordered before) the owner's
// store to tail. (Item 2 is taken twice, which the queue allows.)
//
// With ops = 0 the owner loops forever, choosing put or take each time:
// the tag then grows without bound (the searches' values widen up to 32
// bits), and the runs above are still among its runs, so it is not
// robust either (issue 35 item 4: the shape of the held-out queue).
func IdemLIFO(thieves, ops, size int) string {
	if ops == 0 {
		return idemLIFOLoop(thieves, size)
	}
	queueArgs("IdemLIFO", thieves, ops, size)
	s := &seq{t: &thread{}}
	for i := 1; i <= ops; i++ {
		s.step("read t 0")
		s.step("read g 1")
		at := s.cur()
		s.step("check != t %d", size)
		s.step("write %d + 2 t", i)
		s.step("write + t 1 0")
		s.step("write + g 1 1")
		s.t.tr(at, s.cur(), "check == t %d", size)
	}
	for i := 0; i < ops; i++ {
		s.step("read t 0")
		s.step("read g 1")
		at := s.cur()
		s.step("check != t 0")
		s.step("read x + 1 t")
		s.step("write - t 1 0")
		s.t.tr(at, s.cur(), "check == t 0")
	}
	return queueProgram("idempotent LIFO work-stealing queue, two-word anchor", "not robust",
		thieves, ops, size, 2+size, s.t, lifoThief)
}

// idemLIFOLoop is IdemLIFO with an owner that loops over put and take.
func idemLIFOLoop(thieves, size int) string {
	queueArgs("IdemLIFO", thieves, 1, size)
	own := &thread{}
	own.tr("q0", "p1", "read t 0")
	own.tr("p1", "p2", "read g 1")
	own.tr("p2", "q0", "check == t %d", size)
	own.tr("p2", "p3", "check != t %d", size)
	own.tr("p3", "p4", "write 1 + 2 t")
	own.tr("p4", "p5", "write + t 1 0")
	own.tr("p5", "q0", "write + g 1 1")
	own.tr("q0", "k1", "read t 0")
	own.tr("k1", "k2", "read g 1")
	own.tr("k2", "q0", "check == t 0")
	own.tr("k2", "k3", "check != t 0")
	own.tr("k3", "k4", "read x + 1 t")
	own.tr("k4", "q0", "write - t 1 0")
	bodies := []*thread{own}
	for i := 0; i < thieves; i++ {
		bodies = append(bodies, lifoThief())
	}
	nm := append([]string{"owner"}, names("thief", thieves)...)
	return program(fmt.Sprintf("idempotent LIFO work-stealing queue, two-word anchor, %d thieves, owner looping over put and take, buffer %d: not robust", thieves, size),
		2+size, nm, bodies)
}

// lifoThief steals from IdemLIFO's queue again and again.
func lifoThief() *thread {
	t := &thread{}
	t.tr("q0", "s1", "read t 0")
	t.tr("s1", "s2", "read g 1")
	t.tr("s2", "q0", "check == t 0")
	t.tr("s2", "s3", "check != t 0")
	t.tr("s3", "s4", "read x + 1 t")
	t.tr("s4", "c0", "lock")
	t.tr("c0", "c1", "read c 0")
	t.tr("c1", "c2", "read d 1")
	t.tr("c2", "c3", "check && == c t == d g")
	t.tr("c2", "c9", "check || != c t != d g")
	t.tr("c9", "q0", "unlock")
	t.tr("c3", "c4", "write - t 1 0")
	t.tr("c4", "c5", "write g 1")
	t.tr("c5", "q0", "unlock")
	return t
}

// IdemLIFOPacked is IdemLIFO with the anchor in one cell (cell 0, the
// buffer from 1 on): tail + 16*tag, so size must be below 16. Every
// update of the anchor is then one store.
//
// Robust, for every thieves, ops and size: by Theorem 1 of the TSO paper
// a violation needs an attack whose attacker, with a store delayed, loads
// an address whose value a helper's chain of dependent actions leads
// back from. A thief stores only inside its CAS, a locked section that
// runs with an empty buffer and leaves it empty, so no thief can attack.
// The owner loads the anchor and buffer cells. A put writes its buffer
// cell before the anchor, so while any of the owner's stores is buffered
// an anchor store is too (FIFO), and the owner's anchor loads read its
// own newest buffered store: such a load sees no other thread's store
// and no store of another thread is ordered between it and its source,
// so it starts no chain. Its buffer loads read cells only the owner
// writes; the thieves only load them, and load-load is no dependency, so
// no helper depends on them either.
func IdemLIFOPacked(thieves, ops, size int) string {
	queueArgs("IdemLIFOPacked", thieves, ops, size)
	if size >= 16 {
		panic(fmt.Sprintf("family.IdemLIFOPacked: size %d does not fit the anchor's 4 tail bits", size))
	}
	s := &seq{t: &thread{}}
	for i := 1; i <= ops; i++ {
		s.step("read a 0")
		at := s.cur()
		s.step("check != & a 15 %d", size)
		s.step("write %d + 1 & a 15", i)
		s.step("write + a 17 0")
		s.t.tr(at, s.cur(), "check == & a 15 %d", size)
	}
	for i := 0; i < ops; i++ {
		s.step("read a 0")
		at := s.cur()
		s.step("check != & a 15 0")
		s.step("read x & a 15")
		s.step("write - a 1 0")
		s.t.tr(at, s.cur(), "check == & a 15 0")
	}
	thief := func() *thread {
		t := &thread{}
		t.tr("q0", "s1", "read a 0")
		t.tr("s1", "q0", "check == & a 15 0")
		t.tr("s1", "s3", "check != & a 15 0")
		t.tr("s3", "s4", "read x & a 15")
		cas(t, "s4", "q0", 0, "a", "- a 1")
		return t
	}
	return queueProgram("idempotent LIFO work-stealing queue, one-word anchor", "robust",
		thieves, ops, size, 1+size, s.t, thief)
}
