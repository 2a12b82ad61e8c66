// Command pgasrob decides robustness of PGAS programs against their relaxed
// one-sided memory model (decide, cycles), of TSO/PSO programs against store
// buffering (tso), translates PGAS programs into the store-atomic framework
// (translate, decide --via instrumentation), checks programs (check) and
// cross-checks the checkers (difftest). Run "pgasrob help" for the subcommands; docs/cli.md documents
// every flag, output and JSON schema.
//
// Each subcommand lives in its own file and registers itself in init. The
// exit codes are shared: 0 robust, 1 not robust (or a disagreement), 2 usage
// or input error, 3 unknown (a budget ran out), 4 internal error.
//
// Imports: pgasrob/... (any package of the module), github.com/spf13/pflag
// (flags) and the standard library. Nothing imports it.
package main
