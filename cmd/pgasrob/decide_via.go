package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/translate"
	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// decideViaSchema versions the --json output of decide --via
// instrumentation (docs/cli.md).
const decideViaSchema = "pgasrob/decide-via/v1"

type decideViaJSON struct {
	Schema   string          `json:"schema"`
	File     string          `json:"file"`
	Route    string          `json:"route"`
	Results  []viaResultJSON `json:"results"`
	ExitCode int             `json:"exit_code"`
}

type viaResultJSON struct {
	N int `json:"n"`
	// Verdict is about the PGAS program: NOT ROBUST (the translation's
	// violation carries over) or UNKNOWN (no violation found through the
	// translation, which does not make the PGAS program robust).
	Verdict          string        `json:"verdict"`
	FrameworkVerdict string        `json:"framework_verdict"`
	Reason           string        `json:"reason,omitempty"`
	Attacker         string        `json:"attacker"`
	Attack           *viaStepJSON  `json:"attack,omitempty"` // the attacking store
	LastAction       *viaStepJSON  `json:"last_action,omitempty"`
	Witness          []viaStepJSON `json:"witness"`
	// RuntimeError is the exact route's run-time error check's finding
	// (verdict RUN-TIME ERROR; the framework is then not run).
	RuntimeError *runtimeErrorJSON `json:"runtime_error,omitempty"`
	States       int64             `json:"states"`
	ElapsedMS    int64             `json:"elapsed_ms"`
}

// viaStepJSON is one step of the framework's relaxed computation, mapped
// back to the .pgas line it comes from.
type viaStepJSON struct {
	Rank  int    `json:"rank"`
	Step  string `json:"step"` // exec, advance (to the all-addresses buffer), flush (reaches memory)
	Line  int    `json:"line"`
	Text  string `json:"text"` // the .pgas command
	Role  string `json:"role"` // which part of the command (translate.Role)
	Cell  string `json:"cell,omitempty"`
	Value *int64 `json:"value,omitempty"`
	Note  string `json:"note,omitempty"`
}

func runDecideVia(j *job, c *decideCmd, stdout, stderr io.Writer) int {
	ctx, stop := interruptContext()
	defer stop()
	ctx, unguard := memoryGuard(ctx, j.opt.BudgetBytes>>20)
	defer unguard()
	out := decideViaJSON{Schema: decideViaSchema, File: j.file, Route: "instrumentation", Results: []viaResultJSON{}}
	var codes []int
	for n := j.lo; n <= j.hi; n++ {
		if r, path, code := viaRunError(ctx, j, n); r != nil {
			codes, out.Results = append(codes, code), append(out.Results, *r)
			if !*c.asJSON {
				writeViaRunError(stdout, j.file, j.progFor(n), r, path)
			}
			if code == exitInternal || ctx.Err() != nil {
				break
			}
			continue
		}
		start := time.Now()
		if n == j.lo {
			start = start.Add(-j.frontTime) // the C front end's time counts
		}
		tctx, cancel := ctx, context.CancelFunc(func() {})
		if j.opt.Timeout > 0 {
			// the translation is part of the time of this N
			tctx, cancel = context.WithDeadlineCause(ctx, start.Add(j.opt.Timeout), fmt.Errorf("time budget of %v reached", j.opt.Timeout))
		}
		tr, tp, code := translateProgram(tctx, j.progFor(n), n, stderr)
		cancel()
		if tr == nil {
			return code
		}
		timeout := j.opt.Timeout
		if timeout > 0 {
			// what the translation left of this N's time
			timeout = max(time.Millisecond, timeout-time.Since(start))
		}
		res, err := tso.Check(tp, tsoprog.PSO, tso.Options{MaxStates: j.opt.MaxStates, MaxBytes: j.opt.MaxBytes, BudgetBytes: j.opt.BudgetBytes,
			Timeout: timeout, Jobs: j.opt.Jobs, Context: ctx})
		if err != nil {
			fmt.Fprintf(stderr, "pgasrob decide: N = %d: internal error: %v\n", n, err)
			return exitInternal
		}
		r := viaResult(j.progFor(n), tr, tp, n, res)
		code = exitUnknown
		switch {
		case res.WitnessErr != nil:
			fmt.Fprintf(stderr, "pgasrob decide: N = %d: internal error: %v\n", n, res.WitnessErr)
			code = exitInternal
		case res.Verdict == tsoprog.NotRobust:
			code = exitNotRobust
		}
		codes = append(codes, code)
		out.Results = append(out.Results, r)
		if !*c.asJSON {
			writeViaText(stdout, j.file, r)
		}
		if code == exitInternal || ctx.Err() != nil {
			break
		}
	}
	out.ExitCode = overallCode(codes)
	if *c.asJSON {
		writeJSON(stdout, out)
	}
	return out.ExitCode
}

func viaResult(p *pgas.Program, tr *translate.Result, tp *tsoprog.Program, n int, res *tso.Result) viaResultJSON {
	r := viaResultJSON{N: n, FrameworkVerdict: res.Verdict.String(), Attacker: res.Attacker.String(), Witness: []viaStepJSON{},
		States: res.Stats.States, ElapsedMS: res.Elapsed.Milliseconds()}
	switch res.Verdict {
	case tsoprog.NotRobust:
		r.Verdict = "NOT ROBUST"
		if res.WitnessWithheld != "" {
			r.Reason = "witness withheld: " + res.WitnessWithheld
		}
	case tsoprog.Robust:
		r.Verdict = "UNKNOWN"
		r.Reason = "the translation is robust under the framework, which does not make the PGAS program robust (docs/translate.md); decide it with --via exact"
	default:
		r.Verdict, r.Reason = "UNKNOWN", res.Reason
	}
	w := res.Witness
	if w == nil || res.WitnessErr != nil {
		return r
	}
	// An advance names its cell only: it moves the oldest store of that
	// per-address buffer, which the issues tell.
	pending := map[[2]int][]int{}
	for _, st := range w.Steps {
		switch {
		case st.Kind == tso.StepExec && st.Event >= 0 && w.Events[st.Event].Kind == tsoprog.EvStore:
			k := [2]int{st.Thread, w.Events[st.Event].Cell}
			pending[k] = append(pending[k], st.Event)
		case st.Kind == tso.StepAdvance:
			k := [2]int{st.Thread, st.Cell}
			if q := pending[k]; len(q) > 0 {
				st.Event, pending[k] = q[0], q[1:]
			}
		}
		s := viaStep(p, tr, tp, n, w, st)
		switch {
		case st.Event >= 0 && st.Event == w.StoreEvent && st.Kind == tso.StepExec:
			s.Note = "attacking store, delayed"
			a := s
			r.Attack = &a
		case st.Event >= 0 && st.Event == w.LastEvent && st.Kind == tso.StepExec:
			s.Note = "attacker's last action"
			a := s
			r.LastAction = &a
		case st.Kind == tso.StepFlush && st.Event == w.StoreEvent:
			s.Note = "attacking store reaches memory"
		}
		r.Witness = append(r.Witness, s)
	}
	return r
}

func viaStep(p *pgas.Program, tr *translate.Result, tp *tsoprog.Program, n int, w *tso.Witness, st tso.Step) viaStepJSON {
	s := viaStepJSON{Rank: st.Thread + 1, Step: [...]string{"exec", "advance", "flush"}[st.Kind]}
	trans := st.Trans
	if st.Kind != tso.StepExec {
		trans = -1
	}
	if st.Event >= 0 {
		e := w.Events[st.Event]
		trans = e.Trans
		s.Cell = viaCell(p, tp, n, e.Cell)
		v := e.Val
		s.Value = &v
	}
	if trans >= 0 && trans < len(tr.Origins[st.Thread]) {
		o := tr.Origins[st.Thread][trans]
		t := p.Trans[o.Trans]
		s.Line, s.Text, s.Role = t.Pos.Line, t.Text, o.Role.String()
	}
	return s
}

// viaCell names a framework address as the PGAS cell (rank, name) it
// stands for, or as a barrier flag.
func viaCell(p *pgas.Program, tp *tsoprog.Program, n, cell int) string {
	if cell < 0 || cell >= len(tp.Cells) {
		return ""
	}
	a := int(tp.Cells[cell])
	A := len(p.Addrs)
	if A > 0 && a < n*A {
		return fmt.Sprintf("(%d,%s)", a/A+1, p.Addrs[a%A])
	}
	if a == n*A {
		return "barrier release flag"
	}
	return fmt.Sprintf("barrier arrival flag of rank %d", a-n*A+1)
}

func writeViaText(w io.Writer, file string, r viaResultJSON) {
	fmt.Fprintf(w, "%s, N = %d, via instrumentation: %s (framework: %s; %s attacker; %d states, %dms)\n",
		file, r.N, r.Verdict, r.FrameworkVerdict, r.Attacker, r.States, r.ElapsedMS)
	if r.Reason != "" {
		fmt.Fprintf(w, "  %s\n", r.Reason)
	}
	if len(r.Witness) == 0 {
		return
	}
	fmt.Fprintln(w, "  relaxed computation of the translation, by .pgas line:")
	for i, s := range r.Witness {
		val := ""
		if s.Value != nil && s.Step != "advance" {
			val = fmt.Sprintf(" = %d", *s.Value)
		}
		note := ""
		if s.Note != "" {
			note = "   <- " + s.Note
		}
		fmt.Fprintf(w, "  %3d  rank %d %-7s line %d: %s [%s] %s%s%s\n", i+1, s.Rank, s.Step, s.Line, s.Text, s.Role, s.Cell, val, note)
	}
	fmt.Fprintln(w, "  (the computation was replayed in the framework's semantics and its happens-before cycle recomputed; the PGAS program has a violation too: docs/translate.md)")
}
