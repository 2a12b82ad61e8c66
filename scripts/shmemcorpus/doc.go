// Command shmemcorpus measures the C front end on a corpus of OpenSHMEM
// programs as published (issue 33): for every .c file of the directories
// given, it runs `pgasrob decide FILE -n N` under a time limit and prints a
// Markdown table with one row per file: whether the file has a main and
// uses only the integer API (the class the targets count), and the
// outcome: decided (ROBUST, NOT ROBUST), UNKNOWN, a run-time error, or
// refused with the first message. A last table counts the outcomes and
// the most frequent refusals.
//
//	go build -o /tmp/pgasrob ./cmd/pgasrob
//	go run ./scripts/shmemcorpus -pgasrob /tmp/pgasrob -n 2 DIR...
//
// The corpora themselves are not part of the repository (docs/shmem.md,
// "Public corpora", says where to fetch them).
//
// Imports: the standard library only; it runs pgasrob as a program.
package main
