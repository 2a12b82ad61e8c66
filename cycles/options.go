package cycles

import (
	"context"
	"fmt"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/pgas"
)

// Options configure Decide. Zero values mean: all cores, no state or time
// bound, the default memory bound, stop at the first violation. How the
// options combine, and which of them override which, is decided in one
// place (plan.go).
//
// The zero Exploration and Procedure are PerType and Automata, not the
// Shared and Auto of "pgasrob decide": a library call gets the procedure
// of Theorem 16 alone, whose answer and witness do not depend on the
// scheduling (Auto answers by whichever procedure finishes first, and a
// shared exploration races its per-type helper for each type), and the
// difference tests, shard merges and proofs that call Decide compare
// exactly that procedure; the command asks for Shared and Auto by name.
type Options struct {
	Jobs       int           // cycle types checked in parallel
	MaxStates  int64         // per cycle type (Shared: for the one shared search)
	Timeout    time.Duration // for the whole decision
	MaxBytes   int64         // for all visited sets together
	CacheBytes int64         // bound of the shared move table (movetable.go); < 0 disables it
	// Workers is the number of goroutines that compute successors in
	// each breadth-first search of the decision: the run-time error check
	// and the per-type searches (automata.Options.Workers; the result is
	// the sequential one, state for state). Zero gives the searches the
	// cores Jobs leaves idle: all of them to the run-time error check,
	// which runs alone, and the free slots to a per-type search when
	// fewer types wait than slots are free. The shared exploration itself
	// does not fork (docs/design.md, "Parallel frontier").
	Workers int
	// BudgetBytes, if set, is the user's memory budget of which MaxBytes
	// is the searches' part: messages quote it.
	BudgetBytes int64
	All         bool // check every cycle type even after a violation
	// Commuting decides robustness modulo commuting updates: the conflict
	// relation cf_c of docs/deviations.md, entry 14, in which two popbs of
	// non-fetching atomics of one commuting operation on one cell do not
	// conflict. The zero value is the paper's relation (strict).
	Commuting bool
	// NoSymmetry checks every cycle type even when the program is
	// invariant under a renaming of ranks (symmetry.go), and searches each
	// without the renamings that keep it (symmetry_type.go).
	NoSymmetry bool
	// NoReduction explores every interleaving instead of using the
	// partial-order reduction of reduce.go.
	NoReduction bool
	// DepthFirst searches each cycle type depth-first when only the first
	// witness is needed (not All); see searchType.
	DepthFirst bool
	// StateCache lets every search go on beyond its part of MaxBytes
	// with a bounded state cache (automata.Options.CacheOverflow): an
	// exact answer where the visited set alone would give Unknown, at the
	// cost of time.
	StateCache bool
	// Pressure, if set, is the process's memory signal (automata.
	// Pressure): with StateCache, a search freezes its visited set when
	// it is on, and always the move table stops storing moves and the
	// memos keep to a small size while it is on (they are caches:
	// everything in them is computed again when missing).
	Pressure *automata.Pressure
	Only     []CycleType // check only these cycle types
	// Shard restricts the decision to one part of the cycle types to be
	// searched (shard.go); Merge combines the parts. Costs, if set, are
	// the states each cycle type (by its String) took in an earlier run,
	// to balance the parts; every shard must get the same Costs.
	Shard shard.Shard
	Costs map[string]int64
	// Procedure chooses who decides once the run-time error check has
	// passed: the cycle-type search (Automata, the zero value), the
	// brute-force oracle over X(P,N), or both in a portfolio (Auto,
	// portfolio.go). OracleDelay is how long Auto lets the search run
	// alone before it starts the oracle.
	Procedure   Procedure
	OracleDelay time.Duration
	// Yardsticks, if set, makes the cycle-type search measure itself
	// against one pass over Y (Result.Yardsticks; yardsticks.go), which
	// costs a set of every (Y, μ) pair expanded and one more search.
	Yardsticks bool
	// Exploration chooses between one search per cycle type (the zero
	// value) and one search carrying every cycle type (shared_run.go; the
	// default of the decide command). Yardsticks measure the per-type
	// search and imply it.
	Exploration Exploration
	Context     context.Context
	// noHelper runs the shared exploration without its per-type helper
	// (tests compare the shared search alone with the per-type search:
	// withoutHelper in shared_test.go).
	noHelper bool
	// Progress is called from the searching goroutines (serialise it
	// yourself) with the total visited states so far and the number of
	// cycle types finished.
	Progress func(p Progress)
}

// Exploration is how the cycle types are searched (Options.Exploration).
type Exploration int

const (
	// PerType runs one product search per cycle type (after symmetry),
	// --jobs of them at a time.
	PerType Exploration = iota
	// Shared runs one search that carries every cycle type (shared.go).
	Shared
)

var explorationNames = [...]string{"per-type", "shared"}

func (e Exploration) String() string { return explorationNames[e] }

// Set and Type make *Exploration a command-line flag value.
func (e *Exploration) Set(s string) error {
	x, err := ParseExploration(s)
	if err == nil {
		*e = x
	}
	return err
}

func (e *Exploration) Type() string { return "mode" }

// ParseExploration reads an exploration name.
func ParseExploration(s string) (Exploration, error) {
	for i, n := range explorationNames {
		if s == n {
			return Exploration(i), nil
		}
	}
	return 0, fmt.Errorf("unknown exploration %q (want shared or per-type)", s)
}

// Procedure is who decides a program once the run-time error check has
// passed (Options.Procedure).
type Procedure int

const (
	// Automata is the cycle-type search of Theorem 16 alone.
	Automata Procedure = iota
	// Oracle is the brute-force exploration of X(P,N) (pgas/oracle)
	// alone: exact when it explores everything, UNKNOWN when a bound
	// stops it.
	Oracle
	// Auto runs the cycle-type search, and the oracle beside it once the
	// search has taken OracleDelay; the first exact answer wins and the
	// other procedure is stopped. Some programs with queue waits explode
	// in the product of the cycle types while their plain state space is
	// small; small programs are answered by the search before the
	// oracle starts, so their output stays the same on every run.
	Auto
)

// DefaultOracleDelay is Auto's head start for the cycle-type search.
const DefaultOracleDelay = time.Second

var procedureNames = [...]string{"automata", "oracle", "auto"}

func (p Procedure) String() string { return procedureNames[p] }

// ParseProcedure reads a procedure name.
func ParseProcedure(s string) (Procedure, error) {
	for i, n := range procedureNames {
		if s == n {
			return Procedure(i), nil
		}
	}
	return 0, fmt.Errorf("unknown procedure %q (want auto, automata or oracle)", s)
}

// relation turns Commuting off for a program without commuting updates
// (pgas.Program.HasCommuting): both relations then have the same cycles,
// and the paper's trackers keep the searches, their memo and their
// figures as they were.
func (o Options) relation(p *pgas.Program) Options {
	if o.Commuting && !p.HasCommuting() {
		o.Commuting = false
	}
	return o
}
