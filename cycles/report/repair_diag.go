package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/pgas"
)

// pgasrob repair and pgasrob cycles as compiler diagnostics and SARIF.
//
// A repair's diagnostics are placed at its insertions: each insertion is
// an error of rule not-robust at the line it edits, saying what to write
// there, and the SARIF result carries the whole repair as its fix (the
// same fix as decide --sarif-fixes). The witnesses of the input are not
// shown here: for C they are of the translation the repair works on, not
// of the C text (pgasrob decide shows them in C terms).

// insertionPos is where an insertion edits the source: the statement it
// goes before, or the operation it changes.
func insertionPos(in repair.Insertion) pgas.Pos {
	switch in.Kind {
	case repair.Sync, repair.Blocking, repair.Atomic:
		return in.Op
	}
	return in.At
}

// violatedNs lists the N for which the input was not robust.
func violatedNs(res *repair.Result) string {
	var ns []string
	for _, b := range res.Before {
		if b.Verdict == cycles.NotRobust {
			ns = append(ns, fmt.Sprint(b.N))
		}
	}
	for _, b := range res.RaceBefore {
		if b.Res.Verdict == race.Race {
			ns = append(ns, fmt.Sprint(b.N))
		}
	}
	return strings.Join(ns, ", ")
}

// repairRule is the rule of a repair's findings, and what they say is
// wrong: a data race for repair --criterion race, else not robust.
func repairRule(res *repair.Result) (rule, what string) {
	if res.Criterion == repair.CriterionRace {
		return RuleRace, "racy"
	}
	return RuleNotRobust, "not robust"
}

func posIn(file string, pos pgas.Pos) string {
	switch {
	case pos.Line == 0:
		return file
	case pos.Col == 0:
		return fmt.Sprintf("%s:%d", file, pos.Line)
	}
	return fmt.Sprintf("%s:%d:%d", file, pos.Line, pos.Col)
}

// WriteRepairGCC prints a repair of file as diagnostics: an error per
// insertion; an already robust program says nothing.
func WriteRepairGCC(w io.Writer, file string, res *repair.Result, err error) {
	switch {
	case err != nil || res == nil:
		msg := "no repair shown"
		if err != nil {
			msg = firstLine(err.Error())
		}
		fmt.Fprintf(w, "%s: error: %s [%s]\n", file, msg, RuleInternal)
	case res.Verdict == repair.Repaired:
		rule, what := repairRule(res)
		for i, in := range res.Insertions {
			fmt.Fprintf(w, "%s: error: %s for N = %s: %s (%s, cost %d; insertion %d of %d of a cheapest repair, cost %d) [%s]\n",
				posIn(file, insertionPos(in)), what, violatedNs(res), in.Text, in.Kind, in.Cost, i+1, len(res.Insertions), res.Cost, rule)
		}
	case res.Verdict == repair.RunError:
		fmt.Fprintf(w, "%s: error: run-time error: %s (pgasrob decide shows the computation) [%s]\n", file, res.Reason, RuleRunError)
	case res.Verdict == repair.NoRepair:
		rule, what := repairRule(res)
		fmt.Fprintf(w, "%s: error: %s for N = %s, and no repair: %s [%s]\n", file, what, violatedNs(res), res.Reason, rule)
	}
}

// addRepair adds the SARIF result of a repair (File.Repair): the
// violation at the first insertion, every insertion as a related
// location, the repair as the fix.
func (b *sarifRun) addRepair(f File) {
	res := f.Repair
	switch res.Verdict {
	case repair.Repaired:
		var texts []string
		for _, in := range res.Insertions {
			texts = append(texts, in.Text)
		}
		rule, what := repairRule(res)
		r := newResult(b.run, rule, "error", fmt.Sprintf("%s for N = %s; a cheapest repair (cost %d): %s.", upper(what), violatedNs(res), res.Cost, strings.Join(texts, "; ")))
		for i, in := range res.Insertions {
			pos := insertionPos(in)
			msg := fmt.Sprintf("%s (%s, cost %d)", in.Text, in.Kind, in.Cost)
			if i == 0 {
				r.AddLocation(b.physical(f.Path, pos.Line, pos.Col, msg))
			}
			r.AddRelatedLocation(b.physical(f.Path, pos.Line, pos.Col, msg).WithID(i + 1))
		}
		if fix := b.fix(File{Path: f.Path, Src: f.Src, Fix: res}); fix != nil {
			r.AddFixe(fix)
		}
	case repair.RunError:
		newResult(b.run, RuleRunError, "error", fmt.Sprintf("Run-time error: %s.", res.Reason)).AddLocation(b.physical(f.Path, 0, 0, ""))
	case repair.NoRepair:
		rule, what := repairRule(res)
		newResult(b.run, rule, "error", fmt.Sprintf("%s for N = %s, and no repair: %s.", upper(what), violatedNs(res), res.Reason)).AddLocation(b.physical(f.Path, 0, 0, ""))
	}
}

// WriteCyclesGCC prints the outcomes of pgasrob cycles as diagnostics:
// those of decide --all (the error of each N's witness), then a note for
// each cycle type found feasible.
func WriteCyclesGCC(w io.Writer, file string, p *pgas.Program, outs []Outcome) {
	WriteGCC(w, file, p, outs)
	for _, o := range outs {
		if o.Res == nil {
			continue
		}
		for _, t := range o.Res.Types {
			if t.Checked && t.Outcome == automata.NonEmpty && o.Res.Verdict == cycles.NotRobust {
				fmt.Fprintf(w, "%s: note: N = %d: cycle type %v: %s\n", file, o.N, t.Cycle, TypeWord(t))
			}
		}
	}
}
