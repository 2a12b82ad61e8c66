package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

func init() {
	register(subcommand{name: "check", summary: "parse and statically check a program (.pgas, or C with OpenSHMEM)", run: runCheck})
}

// checkJSON is the --json output of "pgasrob check" (docs/language.md).
type checkJSON struct {
	Schema  string         `json:"schema"`
	File    string         `json:"file"`
	OK      bool           `json:"ok"`
	Errors  []checkError   `json:"errors"`
	Program *checkProgJSON `json:"program,omitempty"`
}

type checkProgJSON struct {
	Name      string `json:"name"`
	Values    int    `json:"values"`     // |DOM|
	ValuesMin int64  `json:"values_min"` // DOM is values_min..values_max
	ValuesMax int64  `json:"values_max"`
	// ValuesInferred: the C front end inferred the domain (no "#pragma
	// pgasrob values"); decide widens it when a value leaves it.
	ValuesInferred bool           `json:"values_inferred,omitempty"`
	Addresses      []checkAddr    `json:"addresses"`
	Registers      []string       `json:"registers"`
	Queues         []string       `json:"queues"`
	States         int            `json:"states"`
	Transitions    int            `json:"transitions"`
	Sugar          map[string]int `json:"sugar"` // transitions per sugar name
}

type checkAddr struct {
	Name   string `json:"name"`
	Hidden bool   `json:"hidden"`
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "check FILE [-n N|LO..HI] [--json] [--automaton]",
		`Parse FILE (a .pgas program, or a C program with OpenSHMEM: a .c file,
or --lang c; "-" reads standard input) and run the static checks of the
.pgas language (docs/language.md) on it or on its translation (docs/shmem.md):
syntax, names, labels, arities, limits, and constant values out of range.
Prints a summary of the compiled program. Exit 0 if the program is fine,
2 with file:line:col errors otherwise.`, exitsCheck, stderr)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	dump := fs.Bool("automaton", false, "also print the compiled automaton: every transition with its core command")
	nArg := stringOnceP(fs, "n", "n", "also check that the program can run on `N` ranks (or each N of a range LO..HI)")
	lang := fs.String("lang", "", langFlagHelp)
	cf := addCFlags(fs)
	if done, code := parseFlags(fs, args); done {
		return code
	}
	copt, err := cf.options(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob check: %v\n%s\n", err, usageHint("check"))
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "pgasrob check: want exactly one FILE, got %d arguments\n%s\n", fs.NArg(), usageHint("check"))
		return exitUsage
	}
	lo, hi := 0, -1
	if *nArg != "" {
		var err error
		if lo, hi, err = parseRange(*nArg); err != nil {
			fmt.Fprintf(stderr, "pgasrob check: %v\n%s\n", err, usageHint("check"))
			return exitUsage
		}
	}
	path := inputName(fs.Arg(0))
	out := checkJSON{Schema: "pgasrob/check/v1", File: path, Errors: []checkError{}}
	p, err := loadProgram(fs.Arg(0), frontBudget{lang: *lang, n: singleN(lo, hi), c: copt})
	for n := lo; err == nil && n <= hi; n++ {
		err = pgas.CheckN(p, n)
	}
	if err != nil {
		var list pgas.ErrorList
		errors.As(err, &list)
		out.Errors = errorsToJSON(path, &inputError{err: err, list: list})
		if *asJSON {
			writeJSON(stdout, out)
		} else {
			fmt.Fprintln(stderr, err)
		}
		return frontCode(err) // 4 for a fault of the front end, not the input's
	}
	out.OK = true
	out.Program = summarize(p)
	if *asJSON {
		writeJSON(stdout, out)
		return exitRobust
	}
	s := out.Program
	var addrs []string
	for _, a := range s.Addresses {
		if a.Hidden {
			addrs = append(addrs, a.Name+" (hidden)")
		} else {
			addrs = append(addrs, a.Name)
		}
	}
	name := s.Name
	if name == "" {
		name = "(unnamed)"
	}
	fmt.Fprintf(stdout, "%s: ok\n", path)
	fmt.Fprintf(stdout, "program    %s\n", name)
	inferred := ""
	if s.ValuesInferred {
		inferred = " (inferred from the program; decide widens it when a value leaves it)"
	}
	fmt.Fprintf(stdout, "values     %d..%d%s\n", s.ValuesMin, s.ValuesMax, inferred)
	fmt.Fprintf(stdout, "addresses  %s\n", list(addrs))
	fmt.Fprintf(stdout, "registers  %s\n", list(s.Registers))
	fmt.Fprintf(stdout, "queues     %s\n", list(s.Queues))
	fmt.Fprintf(stdout, "automaton  %d control states, %d transitions\n", s.States, s.Transitions)
	if len(s.Sugar) > 0 {
		var parts []string
		for _, k := range sugarOrder {
			if s.Sugar[k] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", k, s.Sugar[k]))
			}
		}
		fmt.Fprintf(stdout, "sugar      %s (transitions)\n", strings.Join(parts, ", "))
	}
	if *dump {
		fmt.Fprintf(stdout, "\ninitial state %s\n", p.Labels[p.Init])
		for _, t := range p.Trans {
			cmd := p.CmdString(t.Cmd)
			if t.Cmd.Guard != nil && t.Cmd.Op == pgas.OpLoad { // CmdString shows an atomic's guard
				cmd += " when " + t.Cmd.Guard.String()
			}
			note := ""
			if t.Sugar != "" {
				note = fmt.Sprintf("   [%s, line %d]", t.Sugar, t.Pos.Line)
			}
			fmt.Fprintf(stdout, "  %-8s -> %-8s %s%s\n", p.Labels[t.From], p.Labels[t.To], cmd, note)
		}
	}
	return exitRobust
}

// sugarOrder is the order in which "check" lists the sugar counts: the
// idioms of Section 2.4, then the OpenSHMEM statements.
var sugarOrder = []string{"assert", "handle", "wait", "get", "put", "waitq", "if", "block", "init",
	"putmem", "putmem_nbi", "putval", "getmem", "getmem_nbi", "amo_add", "amo_inc", "amo_set",
	"amo_fetch", "amo_fetch_add", "amo_fetch_inc", "amo_swap", "amo_cswap",
	"put_signal", "put_signal_add", "put_signal_nbi", "put_signal_add_nbi"}

func list(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	return strings.Join(xs, ", ")
}

func summarize(p *pgas.Program) *checkProgJSON {
	s := &checkProgJSON{
		Name: p.Name, Values: p.Values, ValuesMin: p.Lo, ValuesMax: p.Hi(), ValuesInferred: p.Widen != nil,
		Registers: append([]string{}, p.Regs...),
		Queues:    append([]string{}, p.Queues...), States: len(p.Labels), Transitions: len(p.Trans),
		Sugar: map[string]int{},
	}
	for i, a := range p.Addrs {
		s.Addresses = append(s.Addresses, checkAddr{a, i < len(p.Shadow) && p.Shadow[i]})
	}
	if s.Addresses == nil {
		s.Addresses = []checkAddr{}
	}
	for _, t := range p.Trans {
		if t.Sugar != "" {
			s.Sugar[t.Sugar]++
		}
	}
	return s
}
