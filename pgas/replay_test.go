package pgas_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/internal/progbuild"
)

func TestReplayAccepts(t *testing.T) {
	p, _ := oneToOne()
	s, err := pgas.Replay(p, 2, events(tau1to1))
	if err != nil {
		t.Fatal(err)
	}
	// Rank 1 loaded y before rank 2's write landed there; both ranks are
	// after their last executed command (rank 1 at l3, rank 2 at l2).
	if s.Control(1) != 3 || s.Control(2) != 2 || s.Reg(1, 0) != 0 || !s.Final() {
		t.Errorf("final state\n%v", s)
	}
}

// TestReplayRejects: each sequence breaks one rule; the error must name the
// first bad event and say why.
func TestReplayRejects(t *testing.T) {
	ev := oneToOneEvents()
	withCell := func(e pgas.Event, c pgas.Cell) pgas.Event { e.Cell = c; return e }
	withTrans := func(e pgas.Event, tr int) pgas.Event { e.Trans = tr; return e }
	withRank := func(e pgas.Event, r int) pgas.Event { e.Rank = r; return e }
	tests := []struct {
		name   string
		evs    []pgas.Event
		prefix bool // replay as a prefix (no final-state check)
		index  int
		msg    string
	}{
		{"popb before popa", events("write1 popb1"), true, 1, "fb(1,0) is empty"},
		{"popa without request", events("popa2"), true, 0, "fa(2,0) is empty"},
		{"barrier starts with rank 2", events("write1 write2 bar2 bar1"), true, 2, "must start with the event of rank 1"},
		{"barrier interrupted", events("write1 write2 bar1 popa1 bar2"), true, 3, "rank 2"},
		{"barrier cut off", events("write1 write2 bar1"), true, 3, "cut off"},
		{"barrier too early", events("write1 bar1 bar2"), true, 1, "no barrier transition"},
		{"load before barrier", events("write1 load1"), true, 1, "rank 1 is at l1"},
		{"load of the wrong cell", []pgas.Event{ev["write1"], ev["write2"], ev["bar1"], ev["bar2"], withCell(ev["load1"], pgas.Cell{Rank: 1, Addr: 0})}, true, 4, "X produces"},
		{"popa of the wrong cell", []pgas.Event{ev["write1"], withCell(ev["popa1"], pgas.Cell{Rank: 2, Addr: 0})}, true, 1, "X produces"},
		{"pop naming another command", []pgas.Event{ev["write1"], withTrans(ev["popa1"], 2)}, true, 1, "X produces"},
		{"rank out of range", []pgas.Event{withRank(ev["write1"], 3)}, true, 0, "rank 3 outside 1..2"},
		{"unknown transition", []pgas.Event{withTrans(ev["write1"], 9)}, true, 0, "no transition 9"},
		{"assume that fails", append(events("write1 write2 bar1 bar2 load1"),
			pgas.Event{Kind: pgas.KAssume, Rank: 1, Trans: 3, Queue: -1}), true, 5, "condition is false"},
		{"pending requests at the end", events("write1 write2 popa1"), false, 3, "still in the queues"},
	}
	p, _ := oneToOne()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			replay := pgas.Replay
			if tc.prefix {
				replay = pgas.ReplayPrefix
			}
			_, err := replay(p, 2, tc.evs)
			var re *pgas.ReplayError
			if !errors.As(err, &re) {
				t.Fatalf("error %v, want a *ReplayError", err)
			}
			if re.Index != tc.index || !strings.Contains(re.Error(), tc.msg) {
				t.Errorf("error %q at %d, want %q at %d", re.Error(), re.Index, tc.msg, tc.index)
			}
		})
	}
}

// TestReplayRandom: every run of the machine replays to the same state;
// cutting it before the end replays as a prefix.
func TestReplayRandom(t *testing.T) {
	rng := progbuild.NewRand(7)
	for i := 0; i < 200; i++ {
		p := progbuild.Random(rng, 6, i%2 == 1, false)
		n := 1 + rng.IntN(3)
		m := pgas.NewMachine(p, n)
		s := m.Initial()
		var evs []pgas.Event
		for len(evs) < 30 {
			moves, _ := m.Moves(s)
			if len(moves) == 0 {
				break
			}
			next, e := mustApply(t, m, s, moves[rng.IntN(len(moves))])
			s, evs = next, append(evs, e...)
		}
		got, err := pgas.ReplayPrefix(p, n, evs)
		if err != nil {
			t.Fatalf("run does not replay: %v\n%v", err, p)
		}
		if got.Key() != s.Key() {
			t.Fatalf("replay reached\n%v\nthe run reached\n%v", got, s)
		}
		if _, err := pgas.Replay(p, n, evs); (err == nil) != s.Final() {
			t.Fatalf("Replay error %v for a run ending in a final state: %v", err, s.Final())
		}
	}
}

// FuzzReplay: no event sequence makes Replay or HappensBefore panic.
func FuzzReplay(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{4, 4, 8, 8, 255, 3})
	p, _ := oneToOne()
	all := oneToOneEvents()
	var alphabet []pgas.Event
	for _, e := range all {
		alphabet = append(alphabet, e)
	}
	// Map order is random; fix it so that inputs mean the same each run.
	progbuild.SortEvents(alphabet)
	f.Fuzz(func(t *testing.T, data []byte) {
		var evs []pgas.Event
		for _, b := range data {
			e := alphabet[int(b)%len(alphabet)]
			if b >= 200 { // garbage fields too
				e.Rank, e.Trans, e.Queue = int(b)-203, int(b)-230, int(b)%3-1
			}
			evs = append(evs, e)
		}
		_, err := pgas.Replay(p, 2, evs)
		h := pgas.HappensBefore(evs)
		if cyc := h.Cycle(); (cyc != nil) != h.Violating() {
			t.Fatalf("Cycle and Violating disagree")
		}
		_ = err
	})
}

func TestCertify(t *testing.T) {
	p, _ := oneToOne()
	if _, cyc, err := pgas.Certify(p, 2, events(tau1to1)); err != nil || len(cyc) != 5 {
		t.Errorf("τ_1to1: cycle %v, error %v", cyc, err)
	}
	// The SC computation replays but is not violating.
	if _, _, err := pgas.Certify(p, 2, events("write1 popa1 popb1 write2 popa2 popb2 bar1 bar2 load1")); err == nil || !strings.Contains(err.Error(), "no cycle") {
		t.Errorf("SC computation certified: %v", err)
	}
	// A sequence X rejects is not certified, and the reason says so.
	var re *pgas.ReplayError
	if _, _, err := pgas.Certify(p, 2, events("popb1")); !errors.As(err, &re) || re.Index != 0 {
		t.Errorf("bad sequence: %v", err)
	}
}
