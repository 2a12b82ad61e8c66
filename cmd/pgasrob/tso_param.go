package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// tsoJSONParam is the "parameterized" object of the tso JSON output
// (--parameterized; docs/cli.md).
type tsoJSONParam struct {
	Replicated     []string        `json:"replicated"`
	Copies         []tsoJSONCopies `json:"copies,omitempty"` // not robust: copies per thread in the witness instance
	Instance       string          `json:"instance,omitempty"`
	InstanceCheck  string          `json:"instance_check,omitempty"`
	Instances      int             `json:"instances"`
	Confirmed      int             `json:"confirmed_instances"`
	CutoffReason   string          `json:"cutoff_reason,omitempty"`
	AbstractStates int             `json:"abstract_states"`
	Joined         bool            `json:"joined"`
	Globals        int             `json:"global_states"`
	Locals         int             `json:"local_states"`
	NetTransitions int             `json:"net_transitions"`
	Basis          int             `json:"basis"`
	Markings       int64           `json:"markings"`
}

type tsoJSONCopies struct {
	Thread string `json:"thread"`
	Copies int    `json:"copies"`
}

// runTSOParam is pgasrob tso --parameterized after the common checks.
func runTSOParam(stdout, stderr io.Writer, file string, prog *tsoprog.Program, opt tso.Options, instances int, asJSON bool) int {
	for _, w := range tso.IdentityWarnings(prog) {
		fmt.Fprintf(stderr, "pgasrob tso: warning: %s\n", w)
	}
	progress := newProgress(stderr)
	opt.Progress = func(done, total int, markings int64) {
		progress.show("attacks %d/%d, markings %d", done, total, markings)
	}
	r, err := tso.CheckParameterized(prog, opt, instances)
	progress.clear()
	if err != nil {
		// The flags were checked before (--criterion does not go with
		// --parameterized).
		fmt.Fprintln(stderr, "pgasrob tso:", err)
		return exitUsage
	}
	code := exitRobust
	switch r.Verdict {
	case tsoprog.NotRobust:
		code = exitNotRobust
	case tsoprog.Unknown:
		code = exitUnknown
	}
	if r.WitnessErr != nil {
		code = exitInternal
		fmt.Fprintf(stderr, "pgasrob tso: internal error: %v\n", r.WitnessErr)
	}
	// The top level is the tso object of the program, with the witness
	// (a computation of the instance) and the parameterized details.
	wprog := prog
	if r.Instance != nil {
		wprog = r.Instance
	}
	plain := &tso.Result{Verdict: r.Verdict, Model: tsoprog.TSO, Attacker: tso.AttackerTSO, Reason: r.Reason,
		Generated: r.Generated, RefutedSyntactic: r.RefutedSyntactic, RefutedSearch: r.RefutedSearch, Found: r.Found,
		Undecided: r.Undecided, Skipped: r.Skipped, Elapsed: r.Elapsed, Witness: r.Witness, WitnessErr: r.WitnessErr,
		Stats: automata.Stats{States: r.Stats.Markings + int64(r.Stats.Abstract), Bytes: r.Stats.Bytes, Elapsed: r.Stats.Elapsed}}
	if asJSON {
		out := tsoResultJSON(wprog, plain)
		out.File = file
		for _, a := range r.Attacks {
			if a.Outcome == tso.Feasible {
				out.Feasible = append(out.Feasible, a.Attack.Format(prog))
			}
		}
		out.Schema, out.ExitCode = tsoSchema, &code
		out.Param = paramJSON(prog, r, instances)
		writeJSON(stdout, out)
		return code
	}
	printTSOParam(stdout, file, prog, r, instances)
	return code
}

func paramJSON(p *tsoprog.Program, r *tso.ParamResult, instances int) *tsoJSONParam {
	s := r.Stats
	out := &tsoJSONParam{Replicated: []string{}, Instances: instances, Confirmed: r.Confirmed, CutoffReason: r.CutoffReason,
		AbstractStates: s.Abstract, Joined: s.Joined, Globals: s.Globals, Locals: s.Locals, NetTransitions: s.NetTransitions,
		Basis: s.Basis, Markings: s.Markings}
	for _, th := range p.Threads {
		if th.Replicated {
			out.Replicated = append(out.Replicated, th.Name)
		}
	}
	if r.Instance != nil {
		for ti, th := range p.Threads {
			out.Copies = append(out.Copies, tsoJSONCopies{th.Name, r.Copies[ti]})
		}
		out.Instance = r.Instance.String()
		if r.InstanceCheck != nil {
			out.InstanceCheck = strings.ToLower(r.InstanceCheck.Verdict.String())
		}
	}
	return out
}

func printTSOParam(w io.Writer, file string, p *tsoprog.Program, r *tso.ParamResult, instances int) {
	var rep, single []string
	for _, th := range p.Threads {
		if th.Replicated {
			rep = append(rep, th.Name)
		} else {
			single = append(single, th.Name)
		}
	}
	fmt.Fprintf(w, "%s: %s under TSO, parameterized: any number of copies of %s\n", file, r.Verdict, orNone(rep))
	if r.Verdict == tsoprog.Unknown {
		fmt.Fprintf(w, "reason: %s\n", r.Reason)
	}
	if len(single) > 0 {
		fmt.Fprintf(w, "single threads: %s\n", strings.Join(single, ", "))
	}
	fmt.Fprintf(w, "attacks: %d generated, %d refuted syntactically, %d refuted by coverability, %d feasible",
		r.Generated, r.RefutedSyntactic, r.RefutedSearch, r.Found)
	if r.Undecided+r.Skipped > 0 {
		fmt.Fprintf(w, ", %d undecided, %d not started", r.Undecided, r.Skipped)
	}
	s := r.Stats
	joined := ""
	if s.Joined {
		joined = " (joined)"
	}
	fmt.Fprintf(w, "\ncounter abstraction: %d abstract states%s, %d global and %d local states, %d net transitions; backward search: %d markings, basis %d; %v wall\n",
		s.Abstract, joined, s.Globals, s.Locals, s.NetTransitions, s.Markings, s.Basis, r.Elapsed.Round(time.Millisecond))
	switch {
	case r.Instance != nil:
		var cs []string
		for ti, th := range p.Threads {
			cs = append(cs, fmt.Sprintf("%s x%d", th.Name, r.Copies[ti]))
		}
		fmt.Fprintf(w, "witness instance: %s", strings.Join(cs, ", "))
		if r.InstanceCheck != nil {
			fmt.Fprintf(w, " (the plain check of that instance: %s)", r.InstanceCheck.Verdict)
		}
		fmt.Fprintln(w)
		if r.Witness != nil {
			fmt.Fprint(w, r.Witness.Format(r.Instance))
		}
	case instances > 0 && r.Confirmed > 0:
		fmt.Fprintf(w, "cut-off evidence: the plain checker found the instances with 1..%d copies robust", r.Confirmed)
		if r.CutoffReason != "" {
			fmt.Fprintf(w, "; stopped: %s", r.CutoffReason)
		}
		fmt.Fprintln(w)
	case instances > 0:
		fmt.Fprintf(w, "cut-off evidence: none (%s)\n", r.CutoffReason)
	}
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "no thread (none is marked \"thread NAME *\": the program as written)"
	}
	return strings.Join(names, ", ")
}
