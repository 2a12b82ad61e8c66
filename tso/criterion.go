package tso

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/automata"

	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// Criterion is the correctness criterion a program is checked against.
// Every criterion is decided the same way: the program has finitely many
// syntactic patterns (Attack: a thread, one of its stores, and a later
// instruction of it), and a pattern is feasible iff an instrumented copy of
// the program reaches a goal under SC. Check, FindFences, sharding and the
// command line therefore work for every criterion; what differs is the list
// of patterns, the instrumentation with its goal, and the witness.
type Criterion int

const (
	// Robustness: every relaxed computation has the happens-before
	// relation of an SC one (tso-robustness-attacks.md).
	Robustness Criterion = iota
	// Persistence: every TSO run has the program order and store order of
	// an SC run (persistence-fences.md, Sections 6-8).
	Persistence
	// TRF: no SC run has a triangular data race (Owens, ECOOP 2010; the
	// reference tool's -trf). docs/criteria.md gives the definition.
	TRF
)

var criterionNames = [...]string{"robustness", "persistence", "trf"}

func (c Criterion) String() string {
	if int(c) < 0 || int(c) >= len(criterionNames) {
		return fmt.Sprintf("criterion(%d)", int(c))
	}
	return criterionNames[c]
}

// ParseCriterion reads a criterion's name.
func ParseCriterion(s string) (Criterion, error) {
	for i, n := range criterionNames {
		if strings.EqualFold(s, n) {
			return Criterion(i), nil
		}
	}
	return Robustness, fmt.Errorf("unknown criterion %q (want %s)", s, strings.Join(criterionNames[:], ", "))
}

// Criteria lists every criterion, in the order of the constants.
func Criteria() []Criterion { return []Criterion{Robustness, Persistence, TRF} }

// VerdictString names a verdict in the criterion's words: Robust means the
// criterion holds, NotRobust that it is violated.
func (c Criterion) VerdictString(v prog.Verdict) string {
	if v == prog.Unknown {
		return "UNKNOWN"
	}
	words := [...][2]string{
		Robustness:  {"ROBUST", "NOT ROBUST"},
		Persistence: {"PERSISTENT", "FRAGILE"},
		TRF:         {"TRIANGULAR-RACE FREE", "TRIANGULAR RACE"},
	}
	if v == prog.Robust {
		return words[c][0]
	}
	return words[c][1]
}

// criterionDef is what a criterion plugs into the attack pipeline.
type criterionDef struct {
	// attacks lists the patterns and which of them a syntactic argument
	// refutes. FindFences relies on Attack.Store and Attack.Last: a
	// feasible pattern must stay feasible in a program fenced anywhere
	// except on a fence-free path of its thread from the target of Store to
	// the source of Last.
	attacks func(p *prog.Program, m prog.Model) (attacks []Attack, refuted []bool)
	// instrument builds the instrumented threads of one pattern, and the
	// extension of the SC system that holds the criterion's own state,
	// roles and goal (nil: the robustness roles and goal of sc.go).
	instrument func(p *prog.Program, a Attack, shape Attacker) ([]ithread, sysExt)
	// witness turns a feasible pattern's SC path into evidence replayed in
	// the relaxed semantics; an error is an internal error, not a verdict.
	witness func(p *prog.Program, m prog.Model, ar *AttackResult) (*Witness, error)
	// replay certifies a witness recorded by another process (a shard,
	// Merge) by running it again in the relaxed semantics.
	replay func(p *prog.Program, m prog.Model, w *Witness) (*Witness, error)
	// oracle decides the criterion by brute force from its definition,
	// sharing no code with attacks/instrument (only the Machine, the
	// relaxed semantics itself).
	oracle func(p *prog.Program, m prog.Model, b oracle.Budget) oracle.Result
}

// oracleFor runs the brute-force oracle of criterion c; Verdict Robust
// means the criterion holds.
func oracleFor(c Criterion, p *prog.Program, m prog.Model, b oracle.Budget) oracle.Result {
	d, err := defOf(c)
	if err != nil || d.oracle == nil {
		return oracle.Result{Verdict: prog.Unknown, Reason: fmt.Sprintf("criterion %s has no oracle", c)}
	}
	return d.oracle(p, m, b)
}

// criteria holds each criterion's definition; the files of a criterion
// register it from an init function.
var criteria = map[Criterion]*criterionDef{
	Robustness: {
		attacks: enumerateAttacks,
		instrument: func(p *prog.Program, a Attack, shape Attacker) ([]ithread, sysExt) {
			return instrument(p, a, shape), nil
		},
		witness: buildWitness,
		replay: func(p *prog.Program, m prog.Model, w *Witness) (*Witness, error) {
			return replayWitness(p, m, w.Attack, w.Steps, w.StoreEvent, w.LastEvent)
		},
		oracle: oracle.Robustness,
	},
}

// request returns an error if Check cannot decide criterion c under model
// m: c is unknown or not implemented, or c is defined on TSO's store
// buffers only and m is PSO.
func request(c Criterion, m prog.Model) error {
	_, err := defOf(c)
	if err == nil && c != Robustness && m != prog.TSO {
		// Both other criteria are defined on TSO's store buffers.
		err = fmt.Errorf("criterion %s is defined for TSO only", c)
	}
	return err
}

func defOf(c Criterion) (*criterionDef, error) {
	d := criteria[c]
	if d == nil {
		return nil, fmt.Errorf("criterion %s is not implemented", c)
	}
	return d, nil
}

// sysExt extends the SC system of an instrumented program with a
// criterion's own state fields, transition roles and goal. The robustness
// instrumentation needs none (its fields and roles are built into sc.go).
type sysExt interface {
	// layout allocates the extension's fields.
	layout(s *scSystem, l *automata.Layout)
	// exec runs a transition whose role is rExt or above on s.buf (the
	// successor being built) and reports whether it is enabled. t is the
	// original instruction and regs the thread's registers before it.
	exec(s *scSystem, ti int, it *itrans, t *prog.Trans, regs []int64) bool
	// accepting is the goal.
	accepting(s *scSystem, st automata.State) bool
	// reducible says whether the partial-order reduction of por.go is
	// sound for this goal; it is off otherwise.
	reducible() bool
}

// rExt is the first role a criterion's extension may use; roles from rExt
// on are run by sysExt.exec.
const rExt role = 32
