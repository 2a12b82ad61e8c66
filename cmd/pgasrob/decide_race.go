package main

import (
	"fmt"
	"io"
	"time"

	"github.com/pgasrob/pgasrob/cycles/race"
	raceoracle "github.com/pgasrob/pgasrob/cycles/race/oracle"
	"github.com/pgasrob/pgasrob/cycles/report"
)

// decide --criterion race and --criterion all (docs/criteria.md, "Data
// races (PGAS and OpenSHMEM)"). The race procedure is package race; its
// witnesses are certified by the oracle's definition before they are
// shown. Rendering (text, --json, --format gcc, --sarif) is in
// cycles/report (race.go, race_diag.go).

// raceSchema names the version of decide --criterion race's JSON.
const raceSchema = "pgasrob/race/v1"

// raceOutcome is the race decision of one N (rendered by cycles/report).
type raceOutcome = report.RaceOutcome

// allSchema names the version of decide --criterion all's JSON.
const allSchema = "pgasrob/decide-all/v1"

// raceCode maps a race verdict to the exit code of one N: RACE-FREE 0,
// RACE 1, run-time error 2, UNKNOWN 3.
func raceCode(v race.Verdict) int {
	switch v {
	case race.Race:
		return exitNotRobust
	case race.Unknown:
		return exitUnknown
	case race.RunTimeError:
		return exitUsage
	}
	return exitRobust
}

// raceEach decides race freedom for every N of the job.
func (j *job) raceEach(done func(raceOutcome)) []raceOutcome {
	ctx, stop := interruptContext()
	defer stop()
	ctx, unguard := memoryGuard(ctx, j.opt.BudgetBytes>>20)
	defer unguard()
	var all []raceOutcome
	for n := j.lo; n <= j.hi; n++ {
		start := time.Now()
		p, res := raceWidened(j.progFor(n), n, race.Options{MaxStates: j.opt.MaxStates, MaxBytes: j.opt.MaxBytes, Timeout: j.opt.Timeout, Context: ctx})
		j.setProg(n, p)
		o := raceOutcome{N: n, Res: res, Code: raceCode(res.Verdict), Elapsed: time.Since(start)}
		if w := res.Witness; w != nil {
			if err := raceoracle.Certify(j.progFor(n), n, w.Events, w.I, w.J); err != nil {
				o.Err, o.Code = fmt.Errorf("internal error: the race witness fails its certification: %v", err), exitInternal
			}
		}
		all = append(all, o)
		if done != nil {
			done(o)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return all
}

// runDecideRace is decide --criterion race.
func runDecideRace(j *job, c *decideCmd, stdout, stderr io.Writer) int {
	asJSON, of := *c.asJSON, c.out
	if err := of.check(asJSON, j.file); err != nil {
		return usageError(stderr, "decide", err)
	}
	gcc, quiet := of.gcc(), of.gcc() || of.sarifStdout()
	out := report.RaceJSON{Schema: raceSchema, File: j.file, Program: j.prog.Name, NArg: fmt.Sprintf("%d..%d", j.lo, j.hi), Criterion: "race", Results: []report.RaceResultJSON{}}
	var codes []int
	outs := j.raceEach(func(o raceOutcome) {
		codes = append(codes, o.Code)
		if o.Err != nil {
			fmt.Fprintf(stderr, "pgasrob decide: N = %d: %v\n", o.N, o.Err)
		}
		if asJSON {
			out.Results = append(out.Results, report.RaceResultToJSON(j.progFor(o.N), o))
			return
		}
		if !quiet {
			report.WriteRaceText(stdout, j.file, j.progFor(o.N), o)
		}
	})
	code := overallCode(codes)
	if gcc {
		report.WriteRaceGCC(stdout, j.file, j.prog, outs)
	}
	f := report.File{Path: j.file, Prog: j.prog, Src: j.src, Races: outs}
	if !of.writeSARIF([]report.File{f}, stdout, stderr, j.file) && code != exitInternal {
		code = exitUsage
	}
	if asJSON {
		out.Verdict, out.ExitCode = raceOverallVerdict(code), code
		writeJSON(stdout, out)
	}
	return code
}

// runDecideAll is decide --criterion all: robustness, then race freedom,
// for each N, in one report (as tso --criterion all does for its
// criteria). Exit codes: 0 every verdict given (whatever it is), 2 a
// run-time error, 3 some verdict UNKNOWN, 4 an internal error.
func runDecideAll(j *job, pr *decidePrinter, asJSON bool, stdout, stderr io.Writer) int {
	code, _ := decideAll(j, pr, asJSON, stdout, stderr)
	return code
}

// decideAll is runDecideAll, which also returns the race outcomes (the
// robustness ones are in pr.outs): a project reports them per file.
func decideAll(j *job, pr *decidePrinter, asJSON bool, stdout, stderr io.Writer) (int, []raceOutcome) {
	all := report.AllJSON{Schema: allSchema, File: j.file, Program: j.prog.Name, Criteria: []string{"robustness", "race"}}
	if !asJSON {
		fmt.Fprintf(stdout, "robustness:\n")
	}
	var codes []int
	j.decideEach(stderr, func(o outcome) {
		codes = append(codes, o.Code)
		if asJSON {
			all.Robustness = append(all.Robustness, report.ResultToJSON(pr.prog, o))
			return
		}
		pr.add(o)
	})
	if !asJSON {
		fmt.Fprintf(stdout, "race freedom:\n")
	}
	races := j.raceEach(func(o raceOutcome) {
		codes = append(codes, o.Code)
		if o.Err != nil {
			fmt.Fprintf(stderr, "pgasrob decide: N = %d: %v\n", o.N, o.Err)
		}
		if asJSON {
			all.Race = append(all.Race, report.RaceResultToJSON(j.progFor(o.N), o))
			return
		}
		report.WriteRaceText(stdout, j.file, j.progFor(o.N), o)
	})
	code := exitRobust
	for _, c := range codes {
		switch {
		case c == exitInternal:
			code = exitInternal
		case c == exitUsage && code != exitInternal:
			code = exitUsage
		case c == exitUnknown && code == exitRobust:
			code = exitUnknown
		}
	}
	if asJSON {
		all.ExitCode = code
		writeJSON(stdout, all)
	}
	return code, races
}

// raceOverallVerdict names the overall exit code of --criterion race.
func raceOverallVerdict(code int) string {
	switch code {
	case exitNotRobust:
		return "race"
	case exitUnknown:
		return "unknown"
	case exitUsage:
		return "run-time error"
	case exitInternal:
		return "internal error"
	}
	return "race-free"
}
