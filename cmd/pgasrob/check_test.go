package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckCommand(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pgas")
	os.WriteFile(bad, []byte("values 2\naddress x\n  y <- 1\n  goto L\n"), 0o644)
	tests := []struct {
		name    string
		args    []string
		code    int
		stdout  string // substring expected in stdout
		stderr  string // substring expected in stderr
		noPanic bool
	}{
		{"example", []string{"../../examples/1to1.pgas"}, exitRobust, "automaton  6 control states, 5 transitions", "", true},
		{"example with N", []string{"../../examples/mp-sameq.pgas", "-n", "2"}, exitRobust, "program    mpSameQueue", "", true},
		{"N range", []string{"../../examples/mp-sameq.pgas", "-n", "1..2"}, exitUsage, "", "rank 2 outside 1..1 for N = 1", true},
		{"N too large", []string{"../../examples/1to1.pgas", "-n", "17"}, exitUsage, "", "at most 16 ranks", true},
		{"bad N", []string{"../../examples/1to1.pgas", "-n", "x"}, exitUsage, "", "not a number", true},
		{"static errors", []string{bad}, exitUsage, "", "bad.pgas:3:3: undefined register y\n" + bad + ":4:8: undefined label L", true},
		{"missing file", []string{filepath.Join(dir, "none.pgas")}, exitUsage, "", "no such file", true},
		{"no file", nil, exitUsage, "", "pgasrob check: want exactly one FILE", true},
		{"automaton", []string{"--automaton", "../../examples/1to1-fixed.pgas"}, exitRobust, "$t <- mem[$h.h] when $t == 1   [wait, line", "", true},
		{"help", []string{"--help"}, exitRobust, "", "usage: pgasrob check", true},
		{"unknown flag", []string{"--nope", "x"}, exitUsage, "", "unknown flag", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"check"}, tt.args...), &out, &errb)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout %q lacks %q", out.String(), tt.stdout)
			}
			if !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("stderr %q lacks %q", errb.String(), tt.stderr)
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"check", "--json", "../../examples/put.pgas"}, &out, &errb); code != exitRobust {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v checkJSON
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("bad JSON %v:\n%s", err, out.String())
	}
	// put.pgas declares x and y; put needs $sync and $one, hidden.
	if !v.OK || v.Program == nil || len(v.Program.Addresses) != 4 || !v.Program.Addresses[2].Hidden || v.Program.Sugar["put"] != 4 {
		t.Errorf("unexpected summary: %s", out.String())
	}

	out.Reset()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pgas")
	os.WriteFile(bad, []byte("values 1\n"), 0o644)
	if code := run([]string{"check", "--json", bad}, &out, &errb); code != exitUsage {
		t.Fatalf("exit %d", code)
	}
	v = checkJSON{}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("bad JSON %v:\n%s", err, out.String())
	}
	if v.OK || v.Program != nil || len(v.Errors) != 1 || v.Errors[0].Line != 1 || v.Errors[0].Col != 8 {
		t.Errorf("unexpected error report: %s", out.String())
	}
}

// TestCheckShmem checks that check counts the transitions of the OpenSHMEM
// statements per statement name and prints their core commands, the guard
// of an atomic await once.
func TestCheckShmem(t *testing.T) {
	var out, errb bytes.Buffer
	file := "../../examples/shmem-calculus/await-lock.pgas"
	if code := run([]string{"check", "--json", file}, &out, &errb); code != exitRobust {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v checkJSON
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("bad JSON %v:\n%s", err, out.String())
	}
	// amo_cswap: 1 transition; getmem: recv and quiet; putval, amo_set: 1.
	want := map[string]int{"amo_cswap": 1, "getmem": 2, "putval": 1, "amo_set": 1}
	if !v.OK || v.Program == nil || fmt.Sprint(v.Program.Sugar) != fmt.Sprint(want) || strings.Join(v.Program.Queues, " ") != "c $get" {
		t.Errorf("unexpected summary: %s", out.String())
	}
	out.Reset()
	if code := run([]string{"check", "--automaton", file}, &out, &errb); code != exitRobust {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, s := range []string{
		"sugar      putval 1, getmem 2, amo_set 1, amo_cswap 1 (transitions)",
		"r <- atomic(cswap, 1, lock, 1, 0, c) when r == 0   [amo_cswap, line 25]\n",
		"recv(t, 1, cnt, $get)   [getmem, line 26]",
		"quiet c\n",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("check --automaton lacks %q:\n%s", s, out.String())
		}
	}
}
