package cycles

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/pgas"
)

// planCase is one combination of the options the plan resolves.
type planCase struct {
	opt      Options
	streamed bool
}

func (c planCase) String() string {
	o := c.opt
	return fmt.Sprintf("%v/%v all=%v only=%v shard=%v yard=%v df=%v streamed=%v",
		o.Exploration, o.Procedure, o.All, o.Only != nil, o.Shard, o.Yardsticks, o.DepthFirst, c.streamed)
}

// planCases lists every combination of exploration, procedure, the
// per-type selections (All, Only, Shard, whole or one of two parts),
// yardsticks, depth-first and streaming.
func planCases() []planCase {
	selections := []func(*Options){
		func(*Options) {},
		func(o *Options) { o.All = true },
		func(o *Options) { o.Only = []CycleType{{1, 2}} },
		func(o *Options) { o.Shard = shard.Shard{Index: 1, Count: 2} },
		func(o *Options) { o.Shard = shard.Shard{Index: 1, Count: 1} },
		func(o *Options) { o.All, o.Shard = true, shard.Shard{Index: 2, Count: 2} },
	}
	var out []planCase
	for _, ex := range []Exploration{PerType, Shared} {
		for _, proc := range []Procedure{Automata, Oracle, Auto} {
			for _, sel := range selections {
				for _, yard := range []bool{false, true} {
					for _, df := range []bool{false, true} {
						for _, streamed := range []bool{false, true} {
							o := Options{Exploration: ex, Procedure: proc, Yardsticks: yard, DepthFirst: df}
							sel(&o)
							out = append(out, planCase{o, streamed})
						}
					}
				}
			}
		}
	}
	return out
}

// TestPlanRules checks every combination against the rules of plan.go,
// each stated on its own.
func TestPlanRules(t *testing.T) {
	defer streamAbove(TypeCount(2))() // N = 2 is listed, N = 3 streamed
	for _, c := range planCases() {
		o := c.opt
		n := 2
		if c.streamed {
			n = 3
		}
		pl := makePlan(o, n)
		perType := o.All || o.Only != nil || o.Shard.Count > 0
		// Only lists its types: it is never streamed.
		streamed := c.streamed && o.Only == nil
		fail := func(rule string) { t.Errorf("%v: plan %v, note %q: %s", c, pl, pl.note, rule) }
		if perType && pl.arbiter != searchAlone {
			fail("All, Only and Shard are answered by the search alone")
		}
		if !perType && (pl.arbiter == oracleAlone) != (o.Procedure == Oracle) {
			fail("Oracle means the oracle alone")
		}
		if !perType && (pl.arbiter == race) != (o.Procedure == Auto) {
			fail("Auto means the portfolio")
		}
		if streamed != (pl.driver == streamedShared || pl.driver == streamedPerType) {
			fail("the types are streamed exactly when N has too many to list")
		}
		if o.Yardsticks && pl.shared() {
			fail("yardsticks measure the per-type search")
		}
		if !o.Yardsticks && o.Exploration == Shared && !pl.shared() && !(streamed && !o.Shard.Whole()) {
			fail("Shared is kept unless yardsticks or a streamed shard override it")
		}
		if o.Exploration == PerType && pl.shared() {
			fail("PerType never runs the shared exploration")
		}
		if want := o.DepthFirst || (streamed && !o.All); pl.depthFirst != want {
			fail("depth-first as asked, and always for a streamed N without All")
		}
		if (pl.note != "") != (streamed && o.Yardsticks) {
			fail("only the yardsticks missing from a streamed decision are noted")
		}
	}
}

// TestPlanIsRun decides a small program under every combination and
// checks that what ran is what the plan says: who answered, whether the
// types were streamed, the note.
func TestPlanIsRun(t *testing.T) {
	src, err := os.ReadFile("../examples/1to1.pgas")
	if err != nil {
		t.Fatal(err)
	}
	p, err := pgas.Compile("1to1.pgas", src)
	if err != nil {
		t.Fatal(err)
	}
	defer streamAbove(TypeCount(2))() // N = 2 is listed, N = 3 streamed
	for _, c := range planCases() {
		o := c.opt
		o.Jobs, o.MaxStates, o.OracleDelay = 2, 100_000, time.Minute
		n := 2
		if c.streamed {
			n = 3
		}
		pl := makePlan(o, n)
		res, err := Decide(p, n, o)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		wantProc := "automata"
		if pl.arbiter == oracleAlone {
			wantProc = "oracle"
		}
		// The oracle answers for the whole program, without types.
		streamed := pl.arbiter != oracleAlone && (pl.driver == streamedShared || pl.driver == streamedPerType)
		note := pl.note
		if pl.arbiter == oracleAlone {
			note = ""
		}
		if res.Procedure != wantProc || res.Partial != streamed || res.Note != note {
			t.Errorf("%v: plan %v: ran %q, partial %v, note %q", c, pl, res.Procedure, res.Partial, res.Note)
		}
	}
}
