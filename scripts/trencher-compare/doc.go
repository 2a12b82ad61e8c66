// Command trencher-compare measures the CPU time (user + system, from the
// child's rusage) of "pgasrob tso FILE" against the reference tool's
// "trencher -r FILE" on the same inputs, and prints a Markdown table of
// medians with the ratio ours/theirs (docs/tso.md, "Speed against the
// reference tool").
//
//	go build -o /tmp/pgasrob ./cmd/pgasrob
//	go run ./scripts/trencher-compare -pgasrob /tmp/pgasrob \
//	    -trencher /path/to/trencher FILE...
//
// Runs that take longer than -slow are not repeated (the median is of one
// run); runs longer than -timeout are killed and shown as "> timeout",
// runs that die of a signal as "crashed".
// Exit codes: 0 done, 2 bad usage or a binary that cannot be started.
//
// Imports: the standard library only: it runs both tools as programs.
package main
