package main

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/report"
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

// docs/cli.md documents the JSON schemas; every field the command emits
// must appear there, quoted, so that the documentation cannot fall behind.
func TestJSONFieldsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Skipf("docs/cli.md not readable: %v", err)
	}
	for _, v := range []any{decideJSON{}, nResultJSON{}, statsJSON{}, cacheJSON{}, typeCounts{}, witnessJSON{},
		edgeJSON{}, eventJSON{}, cellJSON{}, runtimeErrorJSON{}, cyclesJSON{}, cyclesNJSON{}, cycleTypeJSON{}, versionJSON{}, projectJSON{}, report.SummaryJSON{}, report.AssumptionJSON{}} {
		ty := reflect.TypeOf(v)
		for i := 0; i < ty.NumField(); i++ {
			name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
			if name != "" && !bytes.Contains(doc, []byte(`"`+name+`"`)) {
				t.Errorf("%s.%s: field %q is not in docs/cli.md", ty.Name(), ty.Field(i).Name, name)
			}
		}
	}
	for _, s := range []string{decideSchema, cyclesSchema, versionSchema, projectSchema} {
		if !bytes.Contains(doc, []byte(s)) {
			t.Errorf("schema %s is not in docs/cli.md", s)
		}
	}
}
