package main

import (
	"io"
	"strings"
	"testing"
)

// A C program whose memory depends on N (a heap block of one cell per PE)
// is translated per N: decided at each single N, and on a range each N of
// it on its own translation (pern.go). check, which reads one
// translation, still asks for one N on a range.
func TestDecideHeapPerN(t *testing.T) {
	f := "../../pgas/cfront/testdata/heap/mp-fence-npes.c"
	for _, n := range []string{"2", "3"} {
		code, out, errs := runCmd("decide", f, "-n", n)
		if code != exitRobust || !strings.Contains(out, "ROBUST") {
			t.Errorf("-n %s: exit %d\n%s%s", n, code, out, errs)
		}
	}
	code, _, errs := runCmd("check", f, "-n", "2..3")
	if code != exitUsage || !strings.Contains(errs, "depends on the number of PEs") || !strings.Contains(errs, "give one N") {
		t.Errorf("check -n 2..3: exit %d\n%s", code, errs)
	}
	code, out, errs := runCmd("check", f, "-n", "3")
	if code != exitRobust {
		t.Errorf("check -n 3: exit %d\n%s%s", code, out, errs)
	}
}

// On a range, decide and cycles give for each N the verdict the single N
// gives (the files' hand arguments: mp-fence-npes.c ROBUST, mp-none-npes.c
// NOT ROBUST, at N = 2, 3 and 4), and the witness of each N is replayed on
// that N's translation (decide certifies it; the exit code would be 4
// otherwise).
func TestDecideRangePerN(t *testing.T) {
	for _, c := range []struct {
		file string
		code int
		word string
	}{
		{"../../pgas/cfront/testdata/heap/mp-fence-npes.c", exitRobust, ": ROBUST"},
		{"../../pgas/cfront/testdata/heap/mp-none-npes.c", exitNotRobust, ": NOT ROBUST"},
	} {
		for _, cmd := range []string{"decide", "cycles"} {
			code, out, errs := runCmd(cmd, c.file, "-n", "2..4")
			if code != c.code {
				t.Errorf("%s %s -n 2..4: exit %d, want %d\n%s%s", cmd, c.file, code, c.code, out, errs)
				continue
			}
			for _, n := range []string{"2", "3", "4"} {
				if !strings.Contains(out, "N = "+n+c.word) {
					t.Errorf("%s %s -n 2..4: no %q for N = %s\n%s", cmd, c.file, c.word, n, out)
				}
			}
		}
		code, out, errs := runCmd("decide", c.file, "-n", "2..3", "--json")
		if code != c.code || !strings.Contains(out, `"n": 3`) {
			t.Errorf("decide --json %s: exit %d\n%s%s", c.file, code, out, errs)
		}
	}
}

// A program that does not depend on N keeps its one translation for
// every N of a range; one that does gets a translation per N, each for
// its own N (its heap block has N cells).
func TestPerNOnlyWhenNeeded(t *testing.T) {
	for _, c := range []struct {
		file string
		perN bool
	}{
		{"../../examples/shmem/mp-fence.c", false},
		{"../../pgas/cfront/testdata/heap/mp-fence-npes.c", true},
	} {
		d := newDecideCmd(io.Discard)
		j, ie, code := prepare("decide", d.fs, d.b, decideModes, []string{c.file, "-n", "2..4"}, io.Discard)
		if j == nil || ie != nil || code != 0 {
			t.Fatalf("%s: prepare: exit %d %v", c.file, code, ie)
		}
		if (j.perN != nil) != c.perN {
			t.Errorf("%s: per-N translations %v, want %v", c.file, j.perN != nil, c.perN)
		}
		for n := 2; n <= 4 && c.perN; n++ {
			if j.progFor(n) == j.progFor(n%4+2) {
				t.Errorf("%s: N = %d shares its translation", c.file, n)
			}
			if len(j.progFor(n).Addrs) <= len(j.progFor(2).Addrs) && n > 2 {
				t.Errorf("%s: N = %d has %d cells, no more than N = 2's %d", c.file, n, len(j.progFor(n).Addrs), len(j.progFor(2).Addrs))
			}
		}
	}
}

// The race criterion and a project run (-r) also take each N's own
// translation: mp-none-npes.c's flag is put by PE 0 while PE 1 waits on
// it (a race at every N, as examples/shmem/mp-fence.c in README); the
// project gives the verdicts of TestDecideRangePerN.
func TestRaceAndProjectPerN(t *testing.T) {
	f := "../../pgas/cfront/testdata/heap/mp-none-npes.c"
	_, out, errs := runCmd("decide", f, "-n", "2..3", "--criterion", "race")
	for _, n := range []string{"2", "3"} {
		if !strings.Contains(out, "N = "+n+": RACE") {
			t.Errorf("--criterion race: no race for N = %s\n%s%s", n, out, errs)
		}
	}
	_, out, errs = runCmd("decide", "-r", "../../pgas/cfront/testdata/heap", "-n", "2..3")
	for _, want := range []string{"mp-none-npes.c, N = 3: NOT ROBUST", "mp-fence-npes.c, N = 3: ROBUST"} {
		if !strings.Contains(out, want) {
			t.Errorf("decide -r: no %q\n%s%s", want, out, errs)
		}
	}
}

// repair reads one program, and merge recompiles the shards' one program:
// on a range, both keep the refusal that asks for one N.
func TestPerNOnlyDecideCycles(t *testing.T) {
	f := "../../pgas/cfront/testdata/heap/mp-none-npes.c"
	for _, args := range [][]string{{"repair", f, "-n", "2..3"}, {"decide", f, "-n", "2..3", "--shard", "1/2"}} {
		code, _, errs := runCmd(args...)
		if code != exitUsage || !strings.Contains(errs, "give one N") {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
}
