package cycles

import "fmt"

// driver is the code that searches the cycle types of a decision.
type driver int

const (
	// listedPerType: one product search per listed type, Jobs at a time
	// (pertype.go).
	listedPerType driver = iota
	// listedShared: one search carrying every listed type, helped by the
	// per-type search (shared_run.go, shared_helper.go).
	listedShared
	// streamedShared: the representatives of a streamed N collected by
	// the walk and carried by one shared search, or, when the walk finds
	// more than maxSharedTypes of them, streamedPerType after all (the
	// only choice that depends on the program, made while walking:
	// stream_run.go).
	streamedShared
	// streamedPerType: the representatives searched one by one as the
	// walk reaches them (stream_pertype.go).
	streamedPerType
)

var driverNames = [...]string{"listed per-type", "listed shared", "streamed shared", "streamed per-type"}

func (d driver) String() string { return driverNames[d] }

// arbiter is who settles the decision once the run-time error check has
// passed.
type arbiter int

const (
	searchAlone arbiter = iota // the cycle-type search (driver)
	oracleAlone                // the oracle over X(P,N) (portfolio.go)
	race                       // the search, raced by the oracle (portfolio)
)

var arbiterNames = [...]string{"search", "oracle", "portfolio"}

func (a arbiter) String() string { return arbiterNames[a] }

// plan is what Decide runs for its options and N. Options that cannot
// hold together are resolved here and nowhere else:
//
//   - All, Only and Shard ask for an answer per cycle type, which only
//     the search gives: the oracle and the portfolio are not run.
//   - Yardsticks measure the per-type search: Exploration is ignored.
//     When the types are streamed, yardsticks are not measured at all.
//   - A streamed N without All searches its types depth-first (the
//     first violation of a type ends its search: the unfenced ring at
//     N = 12 visits 5,552 states depth-first against 3.4 million).
//   - The shared exploration of a streamed N needs the whole of it: a
//     shard of a streamed N is searched per type.
//
// Only the override that a user cannot tell from the output is noted
// (Result.Note): the yardsticks missing from a streamed decision. The
// others show in the result itself (Procedure names who answered, the
// types carry their own outcomes), and the note of a shared exploration
// that found too many representatives is set while walking.
type plan struct {
	arbiter arbiter
	driver  driver
	// depthFirst is Options.DepthFirst for the per-type searches of a
	// streamed N (streamPerType); every other search takes the option.
	depthFirst bool
	note       string // for Result.Note
}

// makePlan turns the options and N into the plan of the decision. A
// program with OpenSHMEM commands gets the plan of any other: the
// partial-order reduction, rank symmetry and the shared exploration hold
// for contexts too (docs/deviations.md, "The normal form with contexts",
// "The reductions with contexts").
func makePlan(opt Options, n int) plan {
	pl := plan{depthFirst: opt.DepthFirst}
	perType := opt.All || opt.Only != nil || opt.Shard.Count > 0
	switch {
	case perType || opt.Procedure == Automata:
		pl.arbiter = searchAlone
	case opt.Procedure == Oracle:
		pl.arbiter = oracleAlone
	default:
		pl.arbiter = race
	}
	shared := opt.Exploration == Shared && !opt.Yardsticks
	streamed := opt.Only == nil && TypeCount(n) > listLimit
	switch {
	case !streamed && shared:
		pl.driver = listedShared
	case !streamed:
		pl.driver = listedPerType
	case shared && opt.Shard.Whole():
		pl.driver = streamedShared
	default:
		pl.driver = streamedPerType
	}
	if streamed {
		pl.depthFirst = opt.DepthFirst || !opt.All
		if opt.Yardsticks {
			pl.note = joinNote(pl.note, "yardsticks are measured only when the cycle types are listed")
		}
	}
	return pl
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// shared reports whether the plan runs the shared exploration (unless a
// streamed N has too many representatives for it).
func (pl plan) shared() bool { return pl.driver == listedShared || pl.driver == streamedShared }

func (pl plan) String() string {
	return fmt.Sprintf("%v, %v, depth-first %v", pl.arbiter, pl.driver, pl.depthFirst)
}
