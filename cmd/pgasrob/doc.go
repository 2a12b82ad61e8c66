// Command pgasrob decides robustness of PGAS programs against their relaxed
// one-sided memory model (decide, cycles), of TSO/PSO programs against store
// buffering (tso), translates PGAS programs into the store-atomic framework
// (translate, decide --via instrumentation), checks programs (check) and
// cross-checks the checkers (difftest). Run "pgasrob help" for the subcommands; docs/cli.md documents
// every flag, output and JSON schema.
//
// What a verdict looks like — text, JSON, Graphviz, compiler diagnostics,
// SARIF, the HTML page — is cycles/report's; the command parses flags,
// runs the procedures and hands the results to it.
//
// Each subcommand lives in files named after it (tso.go, tso_json.go,
// tso_fences.go, …) and registers itself in init; its JSON types are
// beside it. A command that runs in several modes picks its mode once
// from a table of the flags each mode reads (modes.go). The exit codes are
// shared: 0 robust, 1 not robust (or a disagreement), 2 usage or input
// error (also output that could not be written), 3 unknown (a budget ran
// out), 4 internal error. What the commands read and write goes through
// files.go: "-" for standard input, inputs refused unless regular files,
// outputs written atomically and never over an input, and standard output
// whose write errors are not lost; frontend.go reads and compiles a program
// (.pgas or C, --lang) under the budgets and SIGINT.
//
// Imports: pgasrob/... (any package of the module), github.com/spf13/pflag
// (flags) and the standard library. Nothing imports it.
package main
