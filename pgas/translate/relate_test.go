package translate

import (
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// TestRelate: the relation between the routes on answers made up for
// each rule (Explain is not reached, so no program is needed).
func TestRelate(t *testing.T) {
	robust := func(who string) Answer { return Answer{Who: who, Known: true} }
	violated := func(who string) Answer { return Answer{Who: who, NotRobust: true, Known: true} }
	none := func(who string) Answer { return Answer{Who: who} }
	for _, tc := range []struct {
		name          string
		pg, fw        [2]Answer
		status        Relation
		pgasW, frameW string
		detail        string
	}{
		{"all robust", [2]Answer{robust("d"), robust("o")}, [2]Answer{robust("c"), robust("t")}, RoutesAgree, "ROBUST", "ROBUST", ""},
		{"all violated", [2]Answer{violated("d"), violated("o")}, [2]Answer{violated("c"), violated("t")}, RoutesAgree, "NOT ROBUST", "NOT ROBUST", ""},
		{"PGAS side split", [2]Answer{violated("d"), robust("o")}, [2]Answer{robust("c"), robust("t")}, RoutesBroken, "NOT ROBUST", "ROBUST", "d and o disagree"},
		{"framework side split", [2]Answer{robust("d"), robust("o")}, [2]Answer{robust("c"), violated("t")}, RoutesBroken, "ROBUST", "ROBUST", "c and t disagree"},
		{"translation violated, X(P,N) not", [2]Answer{robust("d"), robust("o")}, [2]Answer{violated("c"), violated("t")}, RoutesBroken, "ROBUST", "NOT ROBUST", "c finds a violation of the translation, d none in X(P,N)\nWITNESS"},
		{"oracle answers for its side", [2]Answer{none("d"), robust("o")}, [2]Answer{violated("c"), none("t")}, RoutesBroken, "UNKNOWN", "NOT ROBUST", "c finds a violation of the translation, o none"},
		{"no PGAS answer", [2]Answer{none("d"), none("o")}, [2]Answer{violated("c"), violated("t")}, RoutesUndecided, "UNKNOWN", "NOT ROBUST", "a budget ran out"},
		{"no framework answer", [2]Answer{robust("d"), robust("o")}, [2]Answer{none("c"), none("t")}, RoutesUndecided, "ROBUST", "UNKNOWN", "a budget ran out"},
	} {
		c := Relate(nil, 2, tc.pg, tc.fw, nil, "WITNESS")
		if c.Status != tc.status || c.PGAS != tc.pgasW || c.Framework != tc.frameW || !strings.HasPrefix(c.Detail, tc.detail) {
			t.Errorf("%s: %+v, want status %d, verdicts %s / %s, detail %q", tc.name, c, tc.status, tc.pgasW, tc.frameW, tc.detail)
		}
	}
}

// TestRelateExplains: a violation of X(P,N) that the translation misses
// is a difference with the cause Explain finds, on a program of testdata
// named after its cause, with the oracle's violation.
func TestRelateExplains(t *testing.T) {
	p, err := pgas.Load("testdata/own-read.pgas")
	if err != nil {
		t.Fatal(err)
	}
	o := oracle.Explore(p, 2, oracle.Bounds{MaxQueue: 4, MaxNodes: 200_000})
	if o.Violation == nil {
		t.Fatal("the oracle finds no violation")
	}
	pg := [2]Answer{{Who: "d", NotRobust: true, Known: true}, {Who: "o", NotRobust: true, Known: true}}
	fw := [2]Answer{{Who: "c", Known: true}, {Who: "t", Known: true}}
	c := Relate(p, 2, pg, fw, o.Violation, "")
	if c.Status != RoutesDiffer || c.Cause != CauseOwnRead || c.PGAS != "NOT ROBUST" || c.Framework != "ROBUST" {
		t.Errorf("%+v, want a difference caused by %s", c, CauseOwnRead)
	}
}
