package main

import (
	"io"

	"github.com/pgasrob/pgasrob/cycles/report"
)

// decide --criterion race|all on a project: each file is decided as
// "pgasrob decide FILE --criterion race|all" would be, its output kept
// for the project's listing, its race outcomes in report.File.Races for
// the summary (a row per N and criterion), SARIF and --json (the file's
// "race" list).

// decideCriteria runs the race (j.mode "race") or both criteria ("all")
// for one file of a project, into r.
func (r *fileRun) decideCriteria(j *job, c *decideCmd, of *outputFlags) {
	gcc := of.gcc()
	r.file.Prog, r.file.Src = j.prog, j.src
	r.json = decideJSON{Schema: decideSchema, File: j.file, NArg: *c.b.n, Program: j.prog.Name, Results: []nResultJSON{}}
	var text io.Writer = &r.text
	if gcc {
		text = io.Discard // the outcomes are kept, the text is not printed
	}
	var codes []int
	if j.mode == "all" {
		if code := c.exactOptions(j, &r.text); code != 0 {
			r.code = code
			return
		}
		pr := &decidePrinter{stdout: text, stderr: &r.text, file: j.file, prog: j.prog, progFor: j.progFor, src: j.src, isRange: j.lo < j.hi,
			out: r.json}
		code, races := decideAll(j, pr, false, text, &r.text)
		r.file.Outcomes, r.file.Races = pr.outs, races
		for _, o := range pr.outs {
			r.json.Results = append(r.json.Results, report.ResultToJSON(j.progFor(o.N), o))
		}
		codes = append(codes, code)
	} else {
		r.file.Races = j.raceEach(nil)
		for _, o := range r.file.Races {
			codes = append(codes, o.Code)
			if !gcc {
				report.WriteRaceText(text, j.file, j.progFor(o.N), o)
			}
			if o.Err != nil {
				r.text.WriteString("pgasrob decide: " + o.Err.Error() + "\n")
			}
		}
	}
	for _, o := range r.file.Races {
		r.json.Race = append(r.json.Race, report.RaceResultToJSON(j.progFor(o.N), o))
	}
	r.code = overallCode(codes)
	r.json.Verdict, r.json.ExitCode = overallVerdict(r.code), r.code
	if j.mode == "race" {
		r.json.Verdict = raceOverallVerdict(r.code)
	}
	r.json.Warnings, r.json.Assumptions = report.Warnings(j.prog), report.Assumptions(j.prog)
	if gcc {
		for _, o := range r.file.Outcomes {
			report.WriteGCC(&r.text, j.file, j.progFor(o.N), []outcome{o})
		}
		report.WriteRaceGCC(&r.text, j.file, j.prog, r.file.Races)
	}
}
