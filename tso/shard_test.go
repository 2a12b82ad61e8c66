package tso

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/automata/shard"
	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// A witness replayed from its steps alone is the witness the check built:
// same events, same cycle. A step taken away breaks the replay.
func TestReplayWitness(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	replayed := 0
	for i := 0; i < 300 && replayed < 40; i++ {
		p, err := prog.ParseProgram("rand.txt", []byte(gen.Generate(r, gen.Config{Fences: i%2 == 0})))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []prog.Model{prog.TSO, prog.PSO} {
			res := check(p, m, Options{MaxStates: 100000})
			w := res.Witness
			if w == nil {
				continue
			}
			replayed++
			got, err := replayWitness(p, m, w.Attack, w.Steps, w.StoreEvent, w.LastEvent)
			if err != nil {
				t.Fatalf("replay of a certified witness: %v", err)
			}
			if !reflect.DeepEqual(got.Events, w.Events) || !reflect.DeepEqual(got.Cycle, w.Cycle) || !reflect.DeepEqual(got.Steps, w.Steps) {
				t.Fatalf("replayed witness differs:\n%s\n%s", got.Format(p), w.Format(p))
			}
			if _, err := replayWitness(p, m, w.Attack, w.Steps[:len(w.Steps)-1], w.StoreEvent, w.LastEvent); err == nil {
				t.Fatalf("a witness without its last step replays")
			}
		}
	}
	if replayed < 10 {
		t.Fatalf("only %d witnesses replayed", replayed)
	}
}

// Merging the shards of a check gives the unsharded verdict and witness;
// a missing shard leaves its attacks undecided and is named.
func TestMergeShards(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 60; i++ {
		p, err := prog.ParseProgram("rand.txt", []byte(gen.Generate(r, gen.Config{})))
		if err != nil {
			t.Fatal(err)
		}
		whole := check(p, prog.TSO, Options{All: true})
		for k := 1; k <= 4; k++ {
			parts := make([]Part, k)
			for j := range parts {
				parts[j] = Part{Index: j + 1, Result: check(p, prog.TSO, Options{All: true, Shard: shard.Shard{Index: j + 1, Count: k}})}
			}
			m, err := Merge(p, prog.TSO, Options{All: true}, k, parts)
			if err != nil {
				t.Fatal(err)
			}
			if m.Verdict != whole.Verdict || m.Found != whole.Found || m.RefutedSearch != whole.RefutedSearch || m.WitnessErr != nil {
				t.Fatalf("K=%d: merged %v (%d found, %v), unsharded %v (%d found)", k, m.Verdict, m.Found, m.WitnessErr, whole.Verdict, whole.Found)
			}
			if whole.Witness != nil && !reflect.DeepEqual(m.Witness.Events, whole.Witness.Events) {
				t.Fatalf("K=%d: witnesses differ", k)
			}
			if k > 1 && whole.Generated > whole.RefutedSyntactic+1 {
				parts[1] = Part{Index: 2}
				m, err := Merge(p, prog.TSO, Options{All: true}, k, parts)
				if err != nil {
					t.Fatal(err)
				}
				if m.Verdict == prog.Robust || m.Verdict == prog.Unknown && !strings.Contains(m.Reason, "shard 2/") {
					t.Fatalf("K=%d with shard 2 missing: %v %q", k, m.Verdict, m.Reason)
				}
			}
		}
	}
}
