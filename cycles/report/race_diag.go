package report

import (
	"fmt"
	"io"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/pgas"
)

// The race criterion as compiler diagnostics (--format gcc) and SARIF
// results (rule "race"): the error is at the second access, the one that
// completes the race, with a note (gcc) or a second location (SARIF) at
// the first; the execution that reaches them follows as notes (its last
// maxPathNotes events) or as a codeFlow with one threadFlow per PE.

// raceMessage is a race in one sentence, said at the second access.
func raceMessage(p *pgas.Program, o RaceOutcome) string {
	w := o.Res.Witness
	a, b := NewEvent(p, w.I, 0, w.Events[w.I], 0), NewEvent(p, w.J, 0, w.Events[w.J], 0)
	return fmt.Sprintf("data race for N = %d on %s: this %s by %s (%s) and the %s by %s at line %d (%s) are not ordered by the API's happens-before",
		o.N, CellText(p, w.Events[w.J]), accessNoun(w.Events[w.J].Kind), b.Who, quoted(b), accessNoun(w.Events[w.I].Kind), a.Who, a.Pos.Line, quoted(a))
}

func accessNoun(k pgas.Kind) string {
	return map[pgas.Kind]string{pgas.KLoad: "read", pgas.KStore: "write", pgas.KPopa: "read (a transfer's source)",
		pgas.KPopb: "write (a delivery)", pgas.KAmo: "atomic update", pgas.KAFetch: "atomic read"}[k]
}

// WriteRaceGCC prints the race decisions of one file as diagnostics;
// RACE-FREE says nothing.
func WriteRaceGCC(w io.Writer, file string, p *pgas.Program, outs []RaceOutcome) {
	WriteWarnings(w, p)
	for _, o := range outs {
		writeRaceGCCOne(w, file, p, o)
	}
}

func writeRaceGCCOne(w io.Writer, file string, p *pgas.Program, o RaceOutcome) {
	res := o.Res
	switch {
	case o.Err != nil:
		fmt.Fprintf(w, "%s: error: N = %d: %s [%s]\n", file, o.N, firstLine(o.Err.Error()), RuleInternal)
	case res.Witness != nil:
		wit := res.Witness
		a, b := NewEvent(p, wit.I, 0, wit.Events[wit.I], 0), NewEvent(p, wit.J, 0, wit.Events[wit.J], 0)
		fmt.Fprintf(w, "%s: error: %s [%s]\n", evPos(file, b), raceMessage(p, o), RuleRace)
		fmt.Fprintf(w, "%s: note: first access: %s\n", evPos(file, a), raceAccessText(p, wit.Events[wit.I]))
		writePathNotes(w, file, evPos(file, b), NewPath(p, wit.Events), "reached by a computation")
	case res.RunErr != nil:
		at := file
		if pos, ok := RunErrPos(p, res.RunErr); ok {
			at = pos.String()
		}
		fmt.Fprintf(w, "%s: error: run-time error for N = %d: %s [%s]\n", at, o.N, runErrMessage(p, res.RunErr), RuleRunError)
		writePathNotes(w, file, at, NewPath(p, res.RunErrPath), "reached by a sequentially consistent computation")
	case res.Verdict == race.Unknown:
		fmt.Fprintf(w, "%s: warning: race freedom unknown for N = %d: %s [%s]\n", file, o.N, res.Reason, RuleUnknown)
	}
}

// writePathNotes writes a computation's last maxPathNotes events as notes.
func writePathNotes(w io.Writer, file, at string, path []Event, what string) {
	if len(path) == 0 {
		return
	}
	if skip := len(path) - maxPathNotes; skip > 0 {
		fmt.Fprintf(w, "%s: note: %s of %d events; its last %d follow (--format text lists them all)\n", at, what, len(path), maxPathNotes)
		path = path[skip:]
	} else {
		fmt.Fprintf(w, "%s: note: %s of %d events\n", at, what, len(path))
	}
	for _, ev := range path {
		fmt.Fprintf(w, "%s: note: %s\n", evPos(file, ev), evShort(ev))
	}
}

// addRace adds the SARIF result of one N of the race criterion.
func (b *sarifRun) addRace(f File, o RaceOutcome) {
	p, res := f.Prog, o.Res
	switch {
	case o.Err != nil:
		newResult(b.run, RuleInternal, "error", fmt.Sprintf("N = %d: %s", o.N, firstLine(o.Err.Error()))).AddLocation(b.physical(f.Path, 0, 0, ""))
	case res.Witness != nil:
		wit := res.Witness
		path := NewPath(p, wit.Events)
		a, c := path[wit.I], path[wit.J]
		r := newResult(b.run, RuleRace, "error", upper(raceMessage(p, o))+".")
		r.AddLocation(b.evLocation(f.Path, c, "second access: "+raceAccessText(p, wit.Events[wit.J])))
		r.AddLocation(b.evLocation(f.Path, a, "first access: "+raceAccessText(p, wit.Events[wit.I])))
		r.AddCodeFlow(b.codeFlow(f.Path, path, map[int]bool{wit.I: true, wit.J: true},
			fmt.Sprintf("computation of %d events reaching the two accesses, certified in X(P,%d)", len(path), o.N)))
		r.WithPartialFingerprints(map[string]string{"pgasrobRace/v1": fmt.Sprintf("%s:%s|%s:%s", a.Kind, a.Text, c.Kind, c.Text)})
	case res.RunErr != nil:
		r := newResult(b.run, RuleRunError, "error", fmt.Sprintf("Run-time error for N = %d: %s.", o.N, runErrMessage(p, res.RunErr)))
		pos, _ := RunErrPos(p, res.RunErr)
		r.AddLocation(b.physical(f.Path, pos.Line, pos.Col, ""))
		if path := NewPath(p, res.RunErrPath); len(path) > 0 {
			r.AddCodeFlow(b.codeFlow(f.Path, path, nil, fmt.Sprintf("sequentially consistent computation of %d events", len(path))))
		}
	case res.Verdict == race.Unknown:
		newResult(b.run, RuleUnknown, "warning", fmt.Sprintf("Race freedom unknown for N = %d: %s.", o.N, res.Reason)).AddLocation(b.physical(f.Path, 0, 0, ""))
	}
}

func upper(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
