package race_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/race"
	"github.com/pgasrob/pgasrob/cycles/race/oracle"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// Hand-argued programs: each verdict is argued next to it and checked
// with Decide and the oracle at N = 2, 3 and 4.
var argued = []struct {
	name, src string
	want      race.Verdict
	why       string
}{
	{"mp-signal", `values 2
address y, src, flag
register s
context c
if rank == 1 {
 mem[src] <- 1
 put_signal(src, 2, y, flag, 1, c)
}
if rank == 2 {
 s <- mem[flag] when s == 1
 s <- mem[y]
}
`, race.RaceFree, "the signal is delivered after its data (api_hb: data popb -> signal popb), and the await synchronises with the signal"},
	{"mp-putval-flag", `values 2
address y, flag
register s
context c
if rank == 1 {
 putval(1, 2, y, c)
 fence c
 putval(1, 2, flag, c)
}
if rank == 2 {
 s <- mem[flag] when s == 1
 s <- mem[y]
}
`, race.Race, "the flag is written by a put, not an atomic: the await does not synchronise with it (the put and the await race on flag)"},
	{"counter-two-pes", `values 4
address cnt
register s
context c
if rank <= 2 {
 amo_inc(1, cnt, c)
}
quiet c
barrier
if rank == 1 {
 s <- mem[cnt]
}
`, race.RaceFree, "the increments are atomics (they do not race with each other); quiet + barrier orders both before the load"},
	{"xor-two-pes", `values 4
address bits
register s
context c
if rank <= 2 {
 amo_xor(rank, 1, bits, c)
}
quiet c
barrier
if rank == 1 {
 s <- mem[bits]
}
`, race.RaceFree, "the xors are atomics, as adds are (OpenSHMEM's bitwise AMOs are atomic operations): they do not race with each other; quiet + barrier orders both before the load"},
	{"and-or-no-quiet", `values 4
address bits
register s
context c
if rank == 1 {
 amo_and(1, 2, bits, c)
}
if rank == 2 {
 amo_or(2, 2, bits, c)
 s <- mem[bits]
}
`, race.Race, "the and and the or do not race with each other, but rank 2's plain load races with rank 1's and, which nothing orders"},
	{"counter-no-quiet", `values 4
address cnt
register s
context c
if rank <= 2 {
 amo_inc(1, cnt, c)
}
barrier
if rank == 1 {
 s <- mem[cnt]
}
`, race.Race, "without quiet the increment of rank 2 may be delivered after the barrier: it races with rank 1's plain load"},
	{"get-after-barrier-all", `values 2
address x, t
context c
if rank == 2 {
 mem[x] <- 1
}
quiet c
barrier
if rank == 1 {
 getmem(t, 2, x, c)
}
`, race.RaceFree, "the store is before the barrier in program order, the get after it"},
	{"put-then-store-own-source", `values 2
address x, src
context c
if rank == 1 {
 putmem_nbi(src, 2, x, c)
 mem[src] <- 1
}
`, race.Race, "a non-blocking put reads its source any time before a quiet: the popa races with the store to src"},
	{"put-blocking-then-store-source", `values 2
address x, src
context c
if rank == 1 {
 putmem(src, 2, x, c)
 mem[src] <- 1
}
`, race.RaceFree, "a blocking put has read its source when it returns (local completion)"},
}

func TestRaceArgued(t *testing.T) {
	for _, tc := range argued {
		p, err := pgas.Compile(tc.name+".pgas", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for n := 2; n <= 4; n++ {
			res := race.Decide(p, n, race.Options{})
			if res.Verdict != tc.want {
				t.Errorf("%s, N = %d: decide %v, want %v (%s)", tc.name, n, res.Verdict, tc.want, tc.why)
			}
			if or := oracle.Races(p, n, oracle.Options{}); or.Verdict.String() != tc.want.String() {
				t.Errorf("%s, N = %d: oracle %v, want %v (%s)", tc.name, n, or.Verdict, tc.want, tc.why)
			}
		}
	}
}

// TestRaceExamples compares Decide with the oracle on the examples of the
// repository (.pgas and C) at N = 2, where the oracle finishes.
func TestRaceExamples(t *testing.T) {
	var files []string
	for _, g := range []string{"../../examples/*.pgas", "../../examples/shmem-calculus/*.pgas", "../../examples/shmem/*.c"} {
		fs, _ := filepath.Glob(g)
		files = append(files, fs...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d example files", len(files))
	}
	compared := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p *pgas.Program
		if cfront.IsC(f) {
			p, err = cfront.Compile(f, src, cfront.Options{})
		} else {
			p, err = pgas.Compile(f, src)
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		budget := int64(sized(400_000, 2_000_000))
		if testing.Short() {
			budget = 200_000
		}
		or := oracle.Races(p, 2, oracle.Options{MaxSteps: budget})
		if or.Verdict == oracle.Unknown {
			continue
		}
		res := race.Decide(p, 2, race.Options{MaxStates: 5_000_000})
		compared++
		if res.Verdict.String() != or.Verdict.String() {
			t.Errorf("%s, N = 2: decide %v, oracle %v", f, res.Verdict, or.Verdict)
		}
		if w := res.Witness; w != nil {
			if err := oracle.Certify(p, 2, w.Events, w.I, w.J); err != nil {
				t.Errorf("%s: witness: %v", f, err)
			}
		}
		t.Logf("%s: %v", filepath.Base(f), res.Verdict)
	}
	t.Logf("%d of %d files compared", compared, len(files))
}
