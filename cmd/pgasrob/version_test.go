package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	code, out, errs := runCmd("version")
	if code != exitRobust || errs != "" || !strings.Contains(out, "pgasrob "+version) || !strings.Contains(out, runtime.Version()) || !strings.Contains(out, "module "+modulePath) {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	code, out, _ = runCmd("version", "--json")
	var v versionJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitRobust {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if v.Schema != versionSchema || v.Version != version || v.Go != runtime.Version() || v.Module == "" {
		t.Errorf("version JSON %+v", v)
	}
	if code, _, errs := runCmd("version", "extra"); code != exitUsage || !strings.Contains(errs, `unexpected argument "extra"`) {
		t.Errorf("extra argument: exit %d, %q", code, errs)
	}
	if code, _, errs := runCmd("version", "--help"); code != exitRobust || !strings.Contains(errs, "usage: pgasrob version") {
		t.Errorf("help: exit %d, %q", code, errs)
	}
}

// Every registered command answers --help with its usage and exit 0; the
// commands that use parseFlags reject an unknown flag with their own name
// and exit 2.
func TestEveryCommandHelpAndBadFlag(t *testing.T) {
	for _, c := range subcommands {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCmd(c.name, "--help")
			if code != exitRobust || !strings.Contains(out+errs, "usage: pgasrob "+c.name) {
				t.Errorf("--help: exit %d\n%s%s", code, out, errs)
			}
			switch c.name {
			case "check", "decide", "cycles", "version":
			default:
				return // the others report flag errors their own way
			}
			code, _, errs = runCmd(c.name, "--no-such-flag")
			if code != exitUsage || !strings.Contains(errs, "pgasrob "+c.name+": unknown flag: --no-such-flag") {
				t.Errorf("bad flag: exit %d, stderr %q", code, errs)
			}
		})
	}
}
