package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// tso --criterion all: every criterion on every file, as one table
// (docs/criteria.md, "Side by side").

// tsoCriteriaSchema names the version of the table's --json output.
const tsoCriteriaSchema = "pgasrob/tso-criteria/v1"

type tsoCriteriaJSON struct {
	Schema   string            `json:"schema"`
	Model    string            `json:"model"`
	Rows     []tsoCriteriaRow  `json:"rows"`
	ExitCode int               `json:"exit_code"`
	Totals   []tsoCriteriaCell `json:"totals"` // per criterion: states and wall time summed over the rows
}

type tsoCriteriaRow struct {
	File  string            `json:"file"`
	Error string            `json:"error,omitempty"` // the file does not parse
	Cells []tsoCriteriaCell `json:"cells"`           // one per criterion, in the order of tso.Criteria
}

type tsoCriteriaCell struct {
	Criterion  string `json:"criterion"`
	Verdict    string `json:"verdict,omitempty"` // in the criterion's words, lower case
	Reason     string `json:"reason,omitempty"`
	Fences     *int   `json:"fences,omitempty"` // --fences: the certified minimum count
	FenceNote  string `json:"fence_note,omitempty"`
	States     int64  `json:"visited_states"` // of the check
	WallMillis int64  `json:"wall_ms"`        // the check and the fence search
}

// criteriaFiles expands the arguments: a directory stands for its *.txt
// files, sorted.
func criteriaFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		// A file that cannot be read gets its row, with the error.
		if st, err := os.Stat(a); err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		fs, err := filepath.Glob(filepath.Join(a, "*.txt"))
		if err != nil {
			return nil, err
		}
		if len(fs) == 0 {
			return nil, fmt.Errorf("%s: no *.txt files", a)
		}
		sort.Strings(fs)
		out = append(out, fs...)
	}
	return out, nil
}

// runTSOCriteria decides every criterion on every file of the request
// (a directory stands for its *.txt files). Exit codes: 0 every cell
// decided (whatever the verdicts), 2 a file does not parse, 3 some cell
// UNKNOWN, 4 a witness failed its replay.
func runTSOCriteria(stdout, stderr io.Writer, r *tsoRequest, fences, asJSON bool) int {
	files, err := criteriaFiles(r.files)
	if err != nil {
		fmt.Fprintln(stderr, "pgasrob tso:", err)
		return exitUsage
	}
	m, opt := r.model, r.opt
	out := tsoCriteriaJSON{Schema: tsoCriteriaSchema, Model: m.String()}
	totals := make([]tsoCriteriaCell, len(tso.Criteria()))
	code := exitRobust
	worse := func(c int) {
		rank := map[int]int{exitRobust: 0, exitUnknown: 1, exitUsage: 2, exitInternal: 3}
		if rank[c] > rank[code] {
			code = c
		}
	}
	for _, file := range files {
		row := tsoCriteriaRow{File: file, Cells: []tsoCriteriaCell{}}
		src, err := readSource(file)
		var prog *tsoprog.Program
		if err == nil {
			prog, err = tsoprog.ParseProgram(file, src)
		}
		if err != nil {
			row.Error = err.Error()
			fmt.Fprintln(stderr, err)
			worse(exitUsage)
			out.Rows = append(out.Rows, row)
			continue
		}
		for i, c := range tso.Criteria() {
			cell, cc := criterionCell(prog, m, c, opt, fences)
			worse(cc)
			row.Cells = append(row.Cells, cell)
			totals[i].Criterion = cell.Criterion
			totals[i].States += cell.States
			totals[i].WallMillis += cell.WallMillis
		}
		out.Rows = append(out.Rows, row)
	}
	out.Totals, out.ExitCode = totals, code
	if asJSON {
		writeJSON(stdout, out)
		return code
	}
	fmt.Fprint(stdout, criteriaTable(out, fences))
	return code
}

// criterionCell checks one criterion (and searches fences) on one program.
func criterionCell(p *tsoprog.Program, m tsoprog.Model, c tso.Criterion, opt tso.Options, fences bool) (cell tsoCriteriaCell, code int) {
	opt.Criterion = c
	start := time.Now()
	r, err := tso.Check(p, m, opt)
	if err != nil {
		// A criterion the checker cannot take under m (TSO only): an
		// UNKNOWN cell with the reason, like a budget that ran out.
		r = &tso.Result{Verdict: tsoprog.Unknown, Criterion: c, Model: m, Reason: err.Error()}
	}
	cell = tsoCriteriaCell{Criterion: c.String(), Verdict: strings.ToLower(c.VerdictString(r.Verdict)), Reason: r.Reason,
		States: r.Stats.States}
	defer func() { cell.WallMillis = time.Since(start).Milliseconds() }()
	code = exitRobust
	switch {
	case r.WitnessErr != nil:
		cell.Reason, code = "internal error: "+r.WitnessErr.Error(), exitInternal
	case r.Verdict == tsoprog.Unknown:
		code = exitUnknown
	}
	if !fences || r.Verdict == tsoprog.Unknown || r.WitnessErr != nil {
		return cell, code
	}
	n := 0
	if r.Verdict == tsoprog.NotRobust {
		fr, err := tso.FindFences(p, m, tso.FenceOptions{Options: opt})
		if err != nil {
			// Unreachable: the check above took the same request.
			cell.FenceNote = "no certified set: " + err.Error()
			return cell, exitUnknown
		}
		if fr.Verdict != tsoprog.Robust {
			cell.FenceNote = "no certified set: " + fr.Reason
			return cell, exitUnknown
		}
		n = len(fr.Fences)
	}
	cell.Fences = &n
	return cell, code
}

// criteriaTable is the Markdown table of the text output: one column per
// criterion, "verdict (fences)".
func criteriaTable(t tsoCriteriaJSON, fences bool) string {
	var b strings.Builder
	b.WriteString("| file |")
	for _, c := range tso.Criteria() {
		fmt.Fprintf(&b, " %s |", c)
	}
	b.WriteString("\n|---|")
	for range tso.Criteria() {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "| %s |", filepath.Base(r.File))
		if r.Error != "" {
			// The other cells stay empty, so that the row has the
			// table's columns.
			fmt.Fprintf(&b, " error: %s |%s\n", r.Error, strings.Repeat(" |", len(tso.Criteria())-1))
			continue
		}
		for _, c := range r.Cells {
			s := c.Verdict
			switch {
			case c.Fences != nil:
				s += fmt.Sprintf(" (%d)", *c.Fences)
			case fences && c.FenceNote != "":
				s += " (fences unknown)"
			}
			fmt.Fprintf(&b, " %s |", s)
		}
		b.WriteString("\n")
	}
	return b.String()
}
