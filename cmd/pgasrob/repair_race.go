package main

// repair --criterion race on C: the race repair of the translation
// (repair.RepairRace), mapped back to C by repair_c.go, then decided
// again on the edited C and enumerated by the race oracle.

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/cycles/race"
	raceoracle "github.com/pgasrob/pgasrob/cycles/race/oracle"
	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// raceWindowFor widens the window of the translation until no
// computation of any N in ns leaves it (raceWidened): the race procedure
// reports a value leaving the domain in any computation, where windowFor
// looked at the sequentially consistent ones only.
func raceWindowFor(file string, src []byte, ns []int, copt cfront.Options, opt repair.Options) (cfront.Options, error) {
	p, err := cfront.Compile(file, src, copt)
	if err != nil || p.Widen == nil {
		return copt, err
	}
	for _, n := range ns {
		p, _ = raceWidened(p, n, race.Options{MaxStates: opt.Decide.MaxStates, MaxBytes: opt.Decide.MaxBytes, Timeout: opt.Decide.Timeout, Context: opt.Context})
	}
	copt.Lo, copt.Hi = p.Lo, p.Hi()
	return copt, nil
}

// recheckRaceC decides the edited C p again for every N and enumerates
// it with the race oracle; res then holds the edited source.
func recheckRaceC(res *repair.Result, p *pgas.Program, ns []int, fixed []byte, texts []string, opt repair.Options) error {
	for _, n := range ns {
		d := race.Decide(p, n, race.Options{MaxStates: opt.Decide.MaxStates, MaxBytes: opt.Decide.MaxBytes, Timeout: opt.Decide.Timeout, Context: opt.Context})
		if d.Verdict != race.RaceFree {
			res.Verdict, res.Reason = repair.NoRepair, fmt.Sprintf("the repair written in C is not race-free for N = %d (%v; the translation places it differently); the repair of the translation was: %s", n, d.Verdict, strings.Join(texts, "; "))
			return nil
		}
		res.RaceAfter = append(res.RaceAfter, repair.RaceN{N: n, Res: d})
		o := raceoracle.Races(p, n, raceoracle.Options{})
		if o.Verdict == raceoracle.Race || o.Verdict == raceoracle.RunTimeError {
			return fmt.Errorf("%w: the race oracle contradicts the repaired C for N = %d (%v)", repair.ErrInternal, n, o.Verdict)
		}
		oc := repair.OracleCheck{N: n, Complete: o.Verdict == raceoracle.RaceFree, Explored: o.Steps}
		if !oc.Complete {
			oc.Truncated = "the oracle's bound on steps or depth"
		}
		res.Oracle = append(res.Oracle, oc)
	}
	res.Source = fixed
	return nil
}
