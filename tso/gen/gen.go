package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Config shapes random programs. Zero fields take the defaults in
// brackets.
type Config struct {
	Threads int  // maximum number of threads [3]
	Instrs  int  // maximum instructions per thread [4]
	Addrs   int  // addresses 0..Addrs-1 [3]
	Values  int  // written constants 1..Values-1 [3]
	Fences  bool // also emit address-list fences and sfence
	// Twins makes each thread after the first, with probability one
	// half, a copy of an earlier thread's code (identical threads, which
	// the checker's thread symmetry folds together).
	Twins bool
}

// Generate writes a random loop-free program in the input format. Threads
// are chains of instructions with an occasional two-way branch on a
// register (a pair of complementary checks) and an occasional locked
// read-modify-write, so that control, data and locks all play a part; all
// of it stays small enough for the oracle.
func Generate(r *rand.Rand, c Config) string {
	if c.Threads <= 0 {
		c.Threads = 3
	}
	if c.Instrs <= 0 {
		c.Instrs = 4
	}
	if c.Addrs <= 0 {
		c.Addrs = 3
	}
	if c.Values <= 1 {
		c.Values = 3
	}
	var b strings.Builder
	nt := 2 + r.IntN(max(c.Threads-1, 1))
	var bodies []string
	for t := 0; t < nt; t++ {
		fmt.Fprintf(&b, "thread t%d\ninitial q0\n", t)
		if c.Twins && t > 0 && r.IntN(2) == 0 {
			body := bodies[r.IntN(len(bodies))]
			b.WriteString(body)
			bodies = append(bodies, body)
			continue
		}
		start := b.Len()
		q := 0
		next := func() (int, int) { q++; return q - 1, q }
		ni := 2 + r.IntN(max(c.Instrs-1, 1))
		loaded := false
		for i := 0; i < ni; i++ {
			a := r.IntN(c.Addrs)
			if i > 0 && r.IntN(3) == 0 {
				// Favour accesses to two addresses: conflicts make cycles.
				a = r.IntN(min(2, c.Addrs))
			}
			v := 1 + r.IntN(c.Values-1)
			k := r.IntN(22)
			if i == 0 && k >= 8 && k < 14 {
				k = 0 // most threads start with a store
			}
			switch {
			case k < 8:
				from, to := next()
				fmt.Fprintf(&b, "transition q%d q%d write %d %d\n", from, to, v, a)
			case k < 16:
				from, to := next()
				fmt.Fprintf(&b, "transition q%d q%d read r %d\n", from, to, a)
				loaded = true
			case k < 18 && loaded:
				// Branch on the last value read: both arms meet again.
				from, to := next()
				fmt.Fprintf(&b, "transition q%d q%d check == r %d\n", from, to, r.IntN(2))
				fmt.Fprintf(&b, "transition q%d q%d check != r %d\n", from, to, r.IntN(2))
			case k < 19:
				from, to := next()
				fmt.Fprintf(&b, "transition q%d q%d mfence\n", from, to)
			case k < 20:
				f1, t1 := next()
				f2, t2 := next()
				f3, t3 := next()
				f4, t4 := next()
				fmt.Fprintf(&b, "transition q%d q%d lock\ntransition q%d q%d read s %d\ntransition q%d q%d write + s 1 %d\ntransition q%d q%d unlock\n",
					f1, t1, f2, t2, a, f3, t3, a, f4, t4)
			case k < 22 && c.Fences:
				from, to := next()
				if r.IntN(2) == 0 {
					fmt.Fprintf(&b, "transition q%d q%d sfence\n", from, to)
				} else {
					fmt.Fprintf(&b, "transition q%d q%d fence %d %d\n", from, to, a, r.IntN(c.Addrs))
				}
			default:
				from, to := next()
				fmt.Fprintf(&b, "transition q%d q%d local r + r 1\n", from, to)
			}
		}
		b.WriteString("end\n")
		bodies = append(bodies, b.String()[start:])
	}
	return b.String()
}

// Ring writes the benchmark family of issue 4: n threads in a ring, thread
// i raises flag i, fences, reads flag i+1 (mod n) and starts again. It is
// robust (the fence separates every store from every later load) and its
// state space grows exponentially with n.
func Ring(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "thread t%d\ninitial q0\ntransition q0 q1 write 1 %d\ntransition q1 q2 mfence\ntransition q2 q0 read r %d\nend\n", i, i, (i+1)%n)
	}
	return b.String()
}

// UnfencedRing is Ring without its fences: not robust for n >= 2 (each
// thread's store may wait in its buffer while it reads its neighbour's
// flag, a store-buffering cycle around the ring).
func UnfencedRing(n int) string {
	return strings.ReplaceAll(Ring(n), "transition q1 q2 mfence\ntransition q2 q0 read", "transition q1 q0 read")
}

// Private writes the family of issue 10: n threads (1 <= n <= 9), thread i
// adds one to its own cell i, reads cell n (which no thread writes), then
// takes the one away again, forever. Nothing is shared but a cell nobody
// writes, so the program is robust; it has no fence, so no attack is
// refuted syntactically and every one needs a search. The cell's value
// stays in {0, 1}, so the search is finite.
func Private(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "thread t%d\ninitial q0\n"+
			"transition q0 q1 read r %d\ntransition q1 q2 write + r 1 %d\n"+
			"transition q2 q3 read s %d\n"+
			"transition q3 q4 read r %d\ntransition q4 q0 write - r 1 %d\nend\n",
			i, i, i, n, i, i)
	}
	return b.String()
}
