package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/cycles/report"
)

// progressStep is one progress report, printed by every long-running
// command in one format (issue 29, item 10):
//
//	pgasrob CMD: [CONTEXT: ]WHAT DONE of TOTAL[, S states, R states/s][, EXTRA]
//
// with the words of the command's final report (cycle types ... settled,
// attacks ... searched, programs ... run), so that a user reads one
// figure in the same terms while it grows and at the end.
type progressStep struct {
	cmd, context, what string
	done, total        int
	states             int64 // < 0: not a search of states
	elapsed            time.Duration
	extra              string
}

func (s progressStep) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pgasrob %s: ", s.cmd)
	if s.context != "" {
		b.WriteString(s.context + ": ")
	}
	if s.total > 0 {
		fmt.Fprintf(&b, "%s %d of %d", s.what, s.done, s.total)
	} else {
		b.WriteString(s.what)
	}
	if s.states >= 0 {
		rate := 0.0
		if s.elapsed > 0 {
			rate = float64(s.states) / s.elapsed.Seconds()
		}
		fmt.Fprintf(&b, ", %d states, %s states/s", s.states, report.Human(rate))
	}
	if s.extra != "" {
		b.WriteString(", " + s.extra)
	}
	return b.String()
}

// step shows s; its elapsed time, when not set, is the progress line's.
func (p *progressLine) step(s progressStep) {
	if !p.on {
		return
	}
	if s.elapsed == 0 {
		s.elapsed = time.Since(p.start)
	}
	p.show("%s", s)
}
