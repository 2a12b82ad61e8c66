package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/pgasrob/pgasrob/tso"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// tsoJSONAbstraction is the --flatten part of the tso JSON object.
type tsoJSONAbstraction struct {
	Name string `json:"name"` // "flattening"
	// Guarantee says what the verdict covers: "every number of copies",
	// "this program", or "none" (no verdict from the abstraction).
	Guarantee string             `json:"guarantee"`
	Verdict   string             `json:"verdict"` // the abstraction's own answer: persistent | pattern found | unknown
	Reason    string             `json:"reason,omitempty"`
	Pivots    []tsoJSONFlatPivot `json:"pivots"`
	Instance  []tsoJSONCopies    `json:"instance,omitempty"` // copies per replicated thread of the concrete check
	Text      string             `json:"text"`
}

type tsoJSONFlatPivot struct {
	Pivot     string   `json:"pivot"`
	Concrete  []string `json:"concrete"`
	Flattened []string `json:"flattened"`
	Patterns  int      `json:"patterns"`
	Feasible  int      `json:"feasible"`
	States    int64    `json:"visited_states"`
}

// runTSOFlatten decides persistence through the flattening abstraction
// (tso.CheckPersistenceFlattened). The verdict is the abstraction's
// PERSISTENT, or else that of the concrete check it falls back on; the
// exit code follows the verdict.
func runTSOFlatten(stdout, stderr io.Writer, file string, prog *tsoprog.Program, opt tso.Options, asJSON bool) int {
	fr := tso.CheckPersistenceFlattened(prog, opt)
	code := exitRobust
	switch fr.Verdict {
	case tsoprog.NotRobust:
		code = exitNotRobust
	case tsoprog.Unknown:
		code = exitUnknown
	}
	if fr.Concrete != nil && fr.Concrete.WitnessErr != nil {
		code = exitInternal
		fmt.Fprintf(stderr, "pgasrob tso: internal error: %v\n", fr.Concrete.WitnessErr)
	}
	abs := flattenJSON(prog, fr)
	if asJSON {
		var out tsoJSON
		if fr.Concrete != nil {
			wprog := prog
			if fr.Instance != nil {
				wprog, _ = tso.Instance(prog, fr.Instance)
			}
			out = tsoResultJSON(wprog, fr.Concrete)
			out.File = prog.File
		} else {
			out = tsoJSON{File: prog.File, Criterion: tso.Persistence.String(), Model: "TSO", Attacker: "tso"}
			out.Stats.States = fr.Stats.States
		}
		out.Verdict = strings.ToLower(tso.Persistence.VerdictString(fr.Verdict))
		out.Reason = fr.Reason
		out.Abstraction = abs
		out.Schema = tsoSchema
		out.ExitCode = &code
		writeJSON(stdout, out)
		return code
	}
	fmt.Fprintf(stdout, "%s: %s under TSO (flattening abstraction; guarantee: %s)\n", file, tso.Persistence.VerdictString(fr.Verdict), abs.Guarantee)
	if fr.Verdict == tsoprog.Unknown {
		fmt.Fprintf(stdout, "reason: %s\n", fr.Reason)
	}
	fmt.Fprint(stdout, abs.Text)
	if fr.Concrete != nil && fr.Concrete.Witness != nil {
		wprog := prog
		if fr.Instance != nil {
			wprog, _ = tso.Instance(prog, fr.Instance)
		}
		fmt.Fprint(stdout, fr.Concrete.Witness.Format(wprog))
	}
	return code
}

func flattenJSON(p *tsoprog.Program, fr *tso.FlattenResult) *tsoJSONAbstraction {
	out := &tsoJSONAbstraction{Name: "flattening", Reason: fr.Reason, Pivots: []tsoJSONFlatPivot{}, Text: fr.Format(p)}
	names := func(ts []int) []string {
		s := []string{}
		for _, t := range ts {
			s = append(s, p.Threads[t].Name)
		}
		return s
	}
	for _, pv := range fr.Pivots {
		out.Pivots = append(out.Pivots, tsoJSONFlatPivot{Pivot: p.Threads[pv.Pivot].Name, Concrete: names(pv.Concrete),
			Flattened: names(pv.Flattened), Patterns: pv.Patterns, Feasible: pv.Feasible, States: pv.States})
	}
	switch {
	case fr.Verdict == tsoprog.Robust && fr.Concrete == nil:
		out.Verdict, out.Guarantee = "persistent", "this program"
		if p.Replicated() {
			out.Guarantee = "every number of copies"
		}
	case fr.Concrete != nil:
		out.Verdict, out.Guarantee = "pattern found", "none (the verdict is the concrete check's)"
		if fr.Instance != nil && fr.Verdict == tsoprog.Unknown && fr.Concrete.Verdict == tsoprog.Robust {
			out.Guarantee = fmt.Sprintf("none (the instances with 1..%d copies are persistent)", tso.FlattenInstances)
		} else if fr.Instance != nil {
			out.Guarantee = "none (the verdict is the concrete check's, of one instance)"
			for t, th := range p.Threads {
				if th.Replicated {
					out.Instance = append(out.Instance, tsoJSONCopies{Thread: th.Name, Copies: fr.Instance[t]})
				}
			}
		}
	default:
		out.Verdict, out.Guarantee = "unknown", "none"
	}
	return out
}
