package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// raceDecided decides race freedom of an example for n.
func raceDecided(t *testing.T, path string, n int) (*pgas.Program, RaceOutcome) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("../../examples", path))
	if err != nil {
		t.Fatal(err)
	}
	var p *pgas.Program
	if cfront.IsC(path) {
		p, err = cfront.Compile(path, src, cfront.Options{})
	} else {
		p, err = pgas.Compile(path, src)
	}
	if err != nil {
		t.Fatal(err)
	}
	res := race.Decide(p, n, race.Options{})
	code := map[race.Verdict]int{race.RaceFree: 0, race.Race: 1, race.RunTimeError: 2, race.Unknown: 3}[res.Verdict]
	return p, RaceOutcome{N: n, Res: res, Code: code}
}

// A race as diagnostics. mp-quiet.c (its comment, docs/criteria.md):
// PE 0 sets the flag with shmem_long_p, a put, whose delivery no
// happens-before edge orders with PE 1's wait_until reading it (a wait
// synchronises only with atomic writes), so the two race on flag@PE1.
// The golden file was checked by hand: the error at the wait (line 26,
// the second access), the note at the put (line 24), then the 11 events
// of the execution at their lines. mp-signal.c is race-free: nothing.
func TestRaceGCCGolden(t *testing.T) {
	p, o := raceDecided(t, "shmem/mp-quiet.c", 2)
	if o.Res.Verdict != race.Race {
		t.Fatalf("mp-quiet.c: %v, want RACE", o.Res.Verdict)
	}
	var b bytes.Buffer
	WriteRaceGCC(&b, "shmem/mp-quiet.c", p, []RaceOutcome{o})
	golden(t, "gcc/race-mp-quiet.txt", b.Bytes())
	lines := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(lines[0], "shmem/mp-quiet.c:26:9: error: ") || !strings.HasSuffix(lines[0], "["+RuleRace+"]") ||
		!strings.HasPrefix(lines[1], "shmem/mp-quiet.c:24:9: note: first access") {
		t.Errorf("want the error at line 26 and the note at line 24:\n%s", b.String())
	}
	p, o = raceDecided(t, "shmem/mp-signal.c", 2)
	b.Reset()
	WriteRaceGCC(&b, "shmem/mp-signal.c", p, []RaceOutcome{o})
	if o.Res.Verdict != race.RaceFree || b.Len() != 0 {
		t.Errorf("mp-signal.c: %v, diagnostics %q; want RACE-FREE and nothing", o.Res.Verdict, b.String())
	}
}

// raceFile is mp-quiet.c's race decision as a File of the SARIF log.
func raceFile(t *testing.T) File {
	p, o := raceDecided(t, "shmem/mp-quiet.c", 2)
	return File{Path: "shmem/mp-quiet.c", Prog: p, Races: []RaceOutcome{o}}
}

// A race in SARIF: rule "race", the second access and the first as its
// two locations, the execution as a threadFlow per PE with the two
// accesses essential; the log passes the schema.
func TestRaceSARIF(t *testing.T) {
	f := raceFile(t)
	if err := SARIF([]File{f}, "0.1.0").Validate(); err != nil {
		t.Fatalf("schema: %v", err)
	}
	l, _ := decodeSARIF(t, []File{f})
	rs := l.Runs[0].Results
	if len(rs) != 1 || rs[0].RuleID != RuleRace || l.Runs[0].Tool.Driver.Rules[rs[0].RuleIndex].ID != RuleRace {
		t.Fatalf("results %+v, want one race", rs)
	}
	r := rs[0]
	if len(r.Locations) != 2 || r.Locations[0].PhysicalLocation.Region.StartLine != 26 || r.Locations[1].PhysicalLocation.Region.StartLine != 24 {
		t.Errorf("locations %+v, want line 26 (the wait) then line 24 (the put)", r.Locations)
	}
	tfs := r.CodeFlows[0].ThreadFlows
	if len(tfs) != 2 || tfs[0].ID != "PE 0" || tfs[1].ID != "PE 1" {
		t.Fatalf("threadFlows %+v, want PE 0 and PE 1", tfs)
	}
	events, essential := 0, 0
	for _, tf := range tfs {
		for i, loc := range tf.Locations {
			events++
			if loc.Importance == "essential" {
				essential++
			}
			if i > 0 && loc.ExecutionOrder <= tf.Locations[i-1].ExecutionOrder {
				t.Errorf("%s: locations out of program order", tf.ID)
			}
		}
	}
	if w := f.Races[0].Res.Witness; events != len(w.Events) || essential != 2 {
		t.Errorf("%d locations (%d essential) for %d events, want every event and the 2 accesses essential", events, essential, len(w.Events))
	}
}

// The text and JSON of a race, moved here from the command: the two
// accesses and the execution with both marked.
func TestRaceTextJSON(t *testing.T) {
	p, o := raceDecided(t, "shmem/mp-quiet.c", 2)
	var b bytes.Buffer
	WriteRaceText(&b, "mp-quiet.c", p, o)
	if !strings.Contains(b.String(), "RACE on flag@PE1") || strings.Count(b.String(), "<race>") != 2 {
		t.Errorf("text:\n%s", b.String())
	}
	j := RaceResultToJSON(p, o)
	if j.Verdict != "race" || j.Race == nil || j.Race.Cell != "flag@PE1" || j.Race.Events[j.Race.First].Line != 24 || j.Race.Second != len(j.Race.Events)-1 {
		t.Errorf("json %+v", j)
	}
}
