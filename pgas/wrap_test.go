package pgas_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// Atomic adds that wrap (docs/shmem-calculus.md, "Atomic adds that
// wrap"): the step executes modulo values and reports the wrap in
// Step.Wrap and from ApplyWrap; Wraps finds it in a replayed computation.

// wrapProgram compiles one rank's statements (run by every rank) after
// fixed declarations: values v, addresses x, buf, data, sig.
func wrapProgram(t *testing.T, v int, body string) *pgas.Program {
	t.Helper()
	src := fmt.Sprintf("values %d\naddress x, buf, data, sig\nregister r\ncontext c\n%s\n", v, body)
	p, err := pgas.Compile("w.pgas", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return p
}

// allWraps visits every reachable state of X(p, n) (the programs are
// loop-free) and returns the wraps of all steps, keyed by their message.
// Each step's Wrap must be what ApplyWrap reports for its move.
func allWraps(t *testing.T, p *pgas.Program, n int) map[string]*pgas.RangeError {
	t.Helper()
	m := pgas.NewMachine(p, n)
	found := map[string]*pgas.RangeError{}
	var walk func(s *pgas.XState, depth int)
	walk = func(s *pgas.XState, depth int) {
		if depth > 40 {
			t.Fatalf("runaway exploration")
		}
		steps, errs := m.Steps(s)
		if len(errs) > 0 {
			t.Fatalf("unexpected errors %v", errs)
		}
		for _, st := range steps {
			_, _, w, err := m.ApplyWrap(s, st.Move)
			if err != nil {
				t.Fatalf("%v: %v", st.Move, err)
			}
			if (w == nil) != (st.Wrap == nil) || (w != nil && *w != *st.Wrap) {
				t.Fatalf("%v: Steps says wrap %v, ApplyWrap %v", st.Move, st.Wrap, w)
			}
			if w != nil {
				found[w.Error()] = w
			}
			walk(st.Next, depth+1)
		}
	}
	walk(m.Initial(), 0)
	return found
}

func TestWrapReported(t *testing.T) {
	for _, c := range []struct {
		name   string
		values int
		body   string
		want   []string // the wraps' messages, after "w.pgas:"
	}{
		// A fetching add: 1 + 1 = 2 with values 2, at the atomic.
		{"fetch-add", 2, "mem[x] <- 1\nr <- amo_fetch_add(1, 1, x, c)", []string{"6:1: atomic add result 2 outside 0..1 (raise values)"}},
		{"fetch-add-zero", 2, "mem[x] <- 1\nr <- amo_fetch_add(0, 1, x, c)", nil},
		{"fetch-inc-fits", 2, "r <- amo_fetch_inc(1, x, c)", nil},
		// A non-fetching inc wraps at its delivery, reported at the call.
		{"inc-delivered", 2, "mem[x] <- 1\namo_inc(1, x, c)", []string{"6:1: atomic add result 2 outside 0..1 (raise values)"}},
		// Two incs fit with values 3, three do not: the third delivery
		// (whichever inc it is) computes 3.
		{"two-incs-fit", 3, "amo_inc(1, x, c)\namo_inc(1, x, c)", nil},
		{"three-incs", 3, "amo_inc(1, x, c)\namo_inc(1, x, c)\namo_inc(1, x, c)", []string{
			"5:1: atomic add result 3 outside 0..2 (raise values)",
			"6:1: atomic add result 3 outside 0..2 (raise values)",
			"7:1: atomic add result 3 outside 0..2 (raise values)"}},
		// The signal of put_signal_add is an add delivered after the data.
		{"signal-add", 2, "mem[sig] <- 1\nput_signal_add(buf, 1, data, sig, 1, c)", []string{"6:1: atomic add result 2 outside 0..1 (raise values)"}},
		{"signal-set", 2, "mem[sig] <- 1\nput_signal(buf, 1, data, sig, 1, c)", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			found := allWraps(t, wrapProgram(t, c.values, c.body), 1)
			var got []string
			for msg, w := range found {
				if w.What != "atomic" || w.Max != int64(c.values-1) || w.Val <= w.Max {
					t.Errorf("wrap %+v", w)
				}
				got = append(got, strings.TrimPrefix(msg, "w.pgas:"))
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("wraps %q, want %q", got, c.want)
			}
		})
	}
}

// The wrapped step executes: the cell holds the sum modulo values, and a
// fetching add returns the old value.
func TestWrapExecutesModulo(t *testing.T) {
	p := wrapProgram(t, 3, "mem[x] <- 2\nr <- amo_fetch_add(2, 1, x, c)")
	m := pgas.NewMachine(p, 1)
	s := m.Initial()
	var evs []pgas.Event
	var wraps []*pgas.RangeError
	for steps, _ := m.Steps(s); len(steps) > 0; steps, _ = m.Steps(s) {
		s, evs, wraps = steps[0].Next, append(evs, steps[0].Events...), append(wraps, steps[0].Wrap)
	}
	x := pgas.Cell{Rank: 1, Addr: slices.Index(p.Addrs, "x")}
	if s.Mem(x) != 1 || s.Reg(1, 0) != 2 || len(wraps) != 2 || wraps[0] != nil || wraps[1] == nil || wraps[1].Val != 4 {
		t.Fatalf("x = %d, r = %d, wraps %v", s.Mem(x), s.Reg(1, 0), wraps)
	}
	// Replay reports nothing (the computation is one of X); Wraps finds
	// the add at event 1.
	if _, err := pgas.Replay(p, 1, evs); err != nil {
		t.Fatal(err)
	}
	w, i, err := pgas.Wraps(p, 1, evs)
	if err != nil || i != 1 || w == nil || *w != *wraps[1] {
		t.Fatalf("Wraps = %v, %d, %v", w, i, err)
	}
	if w, i, err := pgas.Wraps(p, 1, evs[:1]); err != nil || w != nil || i != -1 {
		t.Fatalf("Wraps of the prefix = %v, %d, %v", w, i, err)
	}
}

// Wraps finds a wrap in a delivery, among two ranks' events, and reports
// a computation that does not replay.
func TestWrapsDelivery(t *testing.T) {
	// Both ranks inc x of rank 1: the second delivery computes 2.
	p := wrapProgram(t, 2, "amo_inc(1, x, c)")
	m := pgas.NewMachine(p, 2)
	s := m.Initial()
	var evs []pgas.Event
	for steps, _ := m.Steps(s); len(steps) > 0; steps, _ = m.Steps(s) {
		s, evs = steps[0].Next, append(evs, steps[0].Events...)
	}
	w, i, err := pgas.Wraps(p, 2, evs)
	if err != nil || w == nil || i < 0 || evs[i].Kind != pgas.KPopb || i != slices.IndexFunc(evs, func(e pgas.Event) bool { return e.Kind == pgas.KPopb && e.Item == evs[i].Item && e.Rank == evs[i].Rank }) {
		t.Fatalf("Wraps = %v at %d, %v in %v", w, i, err, evs)
	}
	if n := countKind(evs[:i], pgas.KPopb); n != 1 {
		t.Errorf("the wrap is at delivery %d, want the second", n+1)
	}
	if _, _, err := pgas.Wraps(p, 2, evs[1:]); err == nil {
		t.Errorf("Wraps accepted a sequence X cannot produce")
	}
}

func countKind(evs []pgas.Event, k pgas.Kind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == k {
			n++
		}
	}
	return n
}
