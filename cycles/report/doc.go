// Package report renders what cycles.Decide answers about a PGAS or C
// program: the verdict for each N and its evidence (the certified witness
// of a violation, the sequentially consistent path to a run-time error)
// in every format pgasrob writes — the text for people (text.go), --json
// (json.go, cyclesjson.go), Graphviz (dot.go), compiler diagnostics
// (gcc.go), SARIF 2.1.0 for code scanning (sarif.go), a self-contained
// HTML page (html.go), and for a whole project the summary table
// (summary.go) and the index of its pages (html_index.go). The race
// criterion's witnesses have text and --json (race.go), diagnostics and
// SARIF (race_diag.go); pgasrob repair and pgasrob cycles have
// diagnostics and SARIF in repair_diag.go.
//
// Every format reads one witness model (model.go) in the user's terms:
// a C program's processes are PEs counted from 0 and its cells name@PE,
// each event carries the C line and call it comes from; a .pgas program
// keeps ranks from 1 and cells (r,x). Nothing here decides anything: the
// witnesses were replayed in the plain semantics and their happens-before
// cycles recomputed (Section 3 of pgas-theory-full.md) before they reach
// a renderer. The front ends' Program.Warnings and Program.Assumptions
// are shown by every format that has room for them.
//
// Imports: pgas, cycles, cycles/race, cycles/repair, normalform, automata,
// github.com/owenrumney/go-sarif/v3 (the SARIF object model) and the
// standard library. cmd/pgasrob uses it.
package report
