// Command nearviol measures pgasrob tso against the reference tool
// (Trencher, -r -b) on the program families of package tso/family
// (issue 27): per family and size, the verdict, states visited, wall
// time, CPU time (user + system of the child) and peak RSS of each tool,
// one run each, as a Markdown table.
//
//	go build -o /tmp/pgasrob ./cmd/pgasrob
//	go run ./scripts/nearviol -pgasrob /tmp/pgasrob \
//	    -trencher /path/to/trencher [-families flagring,dijkstra] [-n 2-12]
//
// Extra flags after -- are passed to pgasrob tso (e.g. -- --combined-states -1);
// -old BIN measures an older binary in the same run (without those flags).
// The reference tool gets the file without its memory_size line, which it
// does not accept.
//
// Imports: the standard library, pgasrob/tso/family and pgasrob/tso/gen
// only (the programs it writes); it runs both tools as programs.
package main
