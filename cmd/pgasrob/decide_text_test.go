package main

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestOverallCode(t *testing.T) {
	tests := []struct {
		codes []int
		want  int
	}{
		{nil, exitRobust},
		{[]int{exitRobust, exitRobust}, exitRobust},
		{[]int{exitRobust, exitUnknown}, exitUnknown},
		{[]int{exitUnknown, exitNotRobust, exitRobust}, exitNotRobust},
		{[]int{exitNotRobust, exitUsage}, exitUsage},
		{[]int{exitUsage, exitInternal, exitNotRobust}, exitInternal},
	}
	for _, tt := range tests {
		if got := overallCode(tt.codes); got != tt.want {
			t.Errorf("overallCode(%v) = %d, want %d", tt.codes, got, tt.want)
		}
	}
}

func TestDotPath(t *testing.T) {
	tests := []struct {
		file    string
		n       int
		isRange bool
		want    string
	}{
		{"cyc.dot", 3, false, "cyc.dot"},
		{"cyc.dot", 3, true, "cyc-3.dot"},
		{"out/cyc.gv", 2, true, "out/cyc-2.gv"},
		{"cyc", 2, true, "cyc-2"},
		{"out.d/cyc", 2, true, "out.d/cyc-2"},
		{".hidden", 4, true, ".hidden-4"},
		{"a.b.dot", 5, true, "a.b-5.dot"},
	}
	for _, tt := range tests {
		if got := dotPath(tt.file, tt.n, tt.isRange); got != tt.want {
			t.Errorf("dotPath(%q, %d, %v) = %q, want %q", tt.file, tt.n, tt.isRange, got, tt.want)
		}
	}
}

func FuzzDotPath(f *testing.F) {
	for _, s := range []string{"cyc.dot", "", ".", "a/.b", "a\\b.c", "x."} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, file string, n int) {
		got := dotPath(file, n, true)
		if len(got) <= len(file) {
			t.Errorf("dotPath(%q) = %q did not add the suffix", file, got)
		}
		if dotPath(file, n, false) != file {
			t.Errorf("single N changed the name")
		}
	})
}

// docs/cli.md documents the JSON schemas; every field the command emits
// must appear there, quoted, so that the documentation cannot fall behind.
func TestJSONFieldsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Skipf("docs/cli.md not readable: %v", err)
	}
	for _, v := range []any{decideJSON{}, nResultJSON{}, statsJSON{}, cacheJSON{}, typeCounts{}, witnessJSON{},
		edgeJSON{}, eventJSON{}, cellJSON{}, runtimeErrorJSON{}, cyclesJSON{}, cyclesNJSON{}, cycleTypeJSON{}, versionJSON{}} {
		ty := reflect.TypeOf(v)
		for i := 0; i < ty.NumField(); i++ {
			name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
			if name != "" && !bytes.Contains(doc, []byte(`"`+name+`"`)) {
				t.Errorf("%s.%s: field %q is not in docs/cli.md", ty.Name(), ty.Field(i).Name, name)
			}
		}
	}
	for _, s := range []string{decideSchema, cyclesSchema, versionSchema} {
		if !bytes.Contains(doc, []byte(s)) {
			t.Errorf("schema %s is not in docs/cli.md", s)
		}
	}
}
