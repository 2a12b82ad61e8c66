package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit codes shared by every subcommand (docs/cli.md).
const (
	exitRobust    = 0 // robust / no disagreement / check passed
	exitNotRobust = 1 // not robust / disagreement found
	exitUsage     = 2 // usage or input error
	exitUnknown   = 3 // a budget ran out before a verdict
	exitInternal  = 4 // internal error (for example a witness failed its replay)
)

type subcommand struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) int
}

var subcommands []subcommand

func register(c subcommand) { subcommands = append(subcommands, c) }

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pgasrob <command> [arguments]\n\ncommands:")
	for _, c := range subcommands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"pgasrob help <command>\" or \"pgasrob <command> --help\" for a command's flags,")
	fmt.Fprintln(w, "\"pgasrob --version\" for the version. FILE \"-\" reads standard input.")
	fmt.Fprintln(w, "Exit codes: 0 robust, 1 not robust, 2 usage or input error, 3 unknown (budget), 4 internal error.")
}

func main() { os.Exit(runProcess(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	resetCOptions() // each run starts from the default C options (cflags.go)
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" && !strings.HasPrefix(args[1], "-") {
			return helpOn(args[1:], stdout, stderr)
		}
		usage(stdout)
		return exitRobust
	case "--version", "-version":
		args = append([]string{"version"}, args[1:]...)
	}
	for _, c := range subcommands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "pgasrob: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

// helpOn answers "pgasrob help COMMAND" as go and git do: the command's
// help, on stdout since it was asked for (a --help goes to stderr with
// the command's other messages).
func helpOn(topic []string, stdout, stderr io.Writer) int {
	if len(topic) > 1 {
		fmt.Fprintf(stderr, "pgasrob help: want one command, got %d arguments\nRun \"pgasrob help\" for the list.\n", len(topic))
		return exitUsage
	}
	for _, c := range subcommands {
		if c.name == topic[0] {
			return c.run([]string{"--help"}, stdout, stdout)
		}
	}
	fmt.Fprintf(stderr, "pgasrob help: unknown command %q\nRun \"pgasrob help\" for the list.\n", topic[0])
	return exitUsage
}
