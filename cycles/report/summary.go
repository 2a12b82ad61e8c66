package report

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// The summary of a project (pgasrob decide on several files): one row
// per file and N, in text and --json.

// SummaryJSON is one row of the summary.
type SummaryJSON struct {
	File      string  `json:"file"`
	N         int     `json:"n"`                   // 0 when the file could not be decided at all
	Criterion string  `json:"criterion,omitempty"` // "race" for a row of the race criterion
	Verdict   string  `json:"verdict"`
	ExitCode  int     `json:"exit_code"`
	ElapsedMS float64 `json:"elapsed_ms"`
	States    int64   `json:"states"`
}

// Summary lists the rows of files, in order.
func Summary(files []File) []SummaryJSON {
	rows := []SummaryJSON{}
	for _, f := range files {
		if len(f.Outcomes) == 0 && len(f.Races) == 0 {
			v := "input error"
			if len(f.Errors) == 0 {
				v = "not decided"
			}
			rows = append(rows, SummaryJSON{File: f.Path, Verdict: v, ExitCode: 2, ElapsedMS: f.Elapsed * 1000})
			continue
		}
		for _, o := range f.Outcomes {
			row := SummaryJSON{File: f.Path, N: o.N, Verdict: VerdictWord(o), ExitCode: o.Code}
			if o.Res != nil {
				row.ElapsedMS = float64(o.Res.Elapsed.Microseconds()) / 1000
				row.States = o.Res.Stats.States
			}
			rows = append(rows, row)
		}
		for _, o := range f.Races {
			row := SummaryJSON{File: f.Path, N: o.N, Criterion: "race", Verdict: RaceVerdictWord(o), ExitCode: o.Code, ElapsedMS: float64(o.Elapsed.Microseconds()) / 1000}
			if o.Res != nil {
				row.States = o.Res.Stats.States
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// WriteSummary prints the table.
func WriteSummary(w io.Writer, rows []SummaryJSON) {
	width := len("file")
	for _, r := range rows {
		width = max(width, len(r.File))
	}
	fmt.Fprintf(w, "%-*s  %3s  %-14s  %10s  %12s\n", width, "file", "N", "verdict", "time", "states")
	for _, r := range rows {
		n := fmt.Sprint(r.N)
		if r.N == 0 {
			n = "-"
		}
		d := RoundDur(time.Duration(r.ElapsedMS * float64(time.Millisecond)))
		fmt.Fprintf(w, "%-*s  %3s  %-14s  %10v  %12d\n", width, r.File, n, strings.ToUpper(r.Verdict), d, r.States)
	}
}
