package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

func init() {
	register(subcommand{name: "version", summary: "print the version of pgasrob and of the Go toolchain", run: runVersion})
}

// version is the release of the command line and of its JSON schemas
// (docs/cli.md). Bump it with every release.
const version = "0.1.0"

// modulePath is the fallback when the binary carries no build information.
const modulePath = "github.com/pgasrob/pgasrob"

// versionSchema names the version of the --json output; like every
// schema name, it changes when a field is removed, renamed or changes
// its meaning.
const versionSchema = "pgasrob/version/v1"

type versionJSON struct {
	Schema   string `json:"schema"`
	Version  string `json:"version"`
	Go       string `json:"go"`
	Module   string `json:"module"`
	Revision string `json:"revision,omitempty"` // VCS revision, when the build recorded it
	Modified bool   `json:"modified,omitempty"` // the working tree had local changes at build time
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "version [--json]",
		`Print the version of pgasrob, the Go version it was built with, its
module path and, when the build recorded it, the VCS revision.`, exitsVersion, stderr)
	asJSON := fs.Bool("json", false, "print one JSON object (schema "+versionSchema+") instead of text")
	if done, code := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "pgasrob version: unexpected argument %q\nRun \"pgasrob version --help\" for usage.\n", fs.Arg(0))
		return exitUsage
	}
	v := versionJSON{Schema: versionSchema, Version: version, Go: runtime.Version(), Module: modulePath}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path != "" {
			v.Module = bi.Main.Path
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if *asJSON {
		writeJSON(stdout, v)
		return exitRobust
	}
	fmt.Fprintf(stdout, "pgasrob %s (module %s, %s %s/%s)\n", v.Version, v.Module, v.Go, runtime.GOOS, runtime.GOARCH)
	if v.Revision != "" {
		mod := ""
		if v.Modified {
			mod = " with local changes"
		}
		fmt.Fprintf(stdout, "revision %s%s\n", v.Revision, mod)
	}
	return exitRobust
}
