package cycles

import (
	"slices"

	"github.com/pgasrob/pgasrob/automata"
)

// The shared exploration on the parallel frontier (automata.Forker). A
// fork shares with the system only what states carry, the numbers of the
// interned elements and sets (shared_tables.go: appended under a mutex,
// read through each goroutine's view), and what never changes (the
// program, Y, the move table, the stuck-rank analysis). Everything else is
// its own: the products of the types (their trackers are scratch), the
// memo tables, the table of Y states and the numbers of control states
// and move keys, none of which appear in a state.
//
// Set numbers then depend on the order in which the goroutines intern
// sets, so a parallel search equals the sequential one up to a renaming
// of the sets: every state's successors are the same sets in the same
// order, and the search inserts them in the sequential order. One
// difference remains: a fork takes the types settled elsewhere over
// (others) between states, as the system does, but may expand a batch of
// states before the search goroutine settles a type that the sequential
// search would have settled first. Its sets then still carry that type,
// which was unwanted; that costs states, never an outcome (an unwanted
// type's elements are ignored by Accepting and are only dropped to save
// work). With Options.All, or when no type is feasible, no type is ever
// dropped and the parallel search visits exactly the sequential search's
// states.

// Fork returns a system for another goroutine (see above). It is called
// by the search goroutine, before the workers start.
func (sh *sharedSystem) Fork() automata.System {
	f := &sharedSystem{y: sh.y, types: sh.types, typeRk: sh.typeRk, moves: sh.moves, mu: sh.mu, setF: sh.setF,
		width: sh.width, yw: sh.yw, ctlBits: sh.ctlBits, free: sh.free, stop: sh.stop, others: sh.others, seen: sh.seen,
		dead: slices.Clone(sh.dead), settled: make([]bool, len(sh.types)), epoch: sh.epoch, live: sh.live,
		yCap: sh.yCap}
	f.v.t = sh.v.t
	f.v.refresh()
	if sh.reduce != nil {
		f.reduce = sh.reduce.fork()
	}
	for _, c := range sh.types {
		f.prods = append(f.prods, newProduct(sh.y, c, sh.moves))
	}
	f.setUp()
	sh.forks = append(sh.forks, f)
	return f
}

// tableBytes is the bytes of the tables of the system and of its forks, as
// far as they have published them.
func (sh *sharedSystem) tableBytes() int64 {
	b := sh.tables + sh.v.t.memoBytes()
	for _, f := range sh.forks {
		b += f.published.Load()
	}
	return b
}

// setMemoCap bounds the memos (all shared by the forks): those of steps
// and prunings at n/4 entries each, the stores of markings and
// successors at n/2 runs each.
func (sh *sharedSystem) setMemoCap(n int) {
	sh.v.t.setMemoCap(max(16, n/4), max(16, n/2))
}
