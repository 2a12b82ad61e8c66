package repair

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	"github.com/pgasrob/pgasrob/pgas/oracle"
)

// The OpenSHMEM remedies end to end: parsed, decided, repaired, decided
// again and explored by the oracle. Each expected repair is argued by hand
// next to its program (docs/shmem-calculus.md for the rules).

// mpOnePE: rank 1 puts data, then flag, to rank 2 with two non-blocking
// puts; rank 2 loads flag, then data. The puts are unordered, so rank 2
// can see flag = 1 and data = 0: send(data) ->po send(flag) ↔ popb(flag)
// ->cf load flag ->po load data ->cf popb(data) ↔ send(data). A fence
// between the puts orders their delivery (same target rank, same
// context) and is the only insertion of cost 1 that does: a fence before
// line 10 or later follows both puts on rank 1 and precedes no send on
// rank 2. So the repair is one "fence c" before line 8.
const mpOnePE = `values 2
context c
address one, data, flag
register r, s
    mem[one] <- 1
    if rank == 1 {
        putmem_nbi(one, 2, data, c)
        putmem_nbi(one, 2, flag, c)
    }
    if rank == 2 {
        r <- mem[flag]
        s <- mem[data]
    }
`

// mpTwoPEs: the data goes to rank 2, the flag to rank 3, which loads the
// flag and then gets the data from rank 2 with a blocking get. The cycle
// is the one of mpOnePE through the get's popa. A fence orders sends to
// the same rank only: no help (nor two fences). Making the data put
// blocking completes its source read only; its delivery can still be
// late. A quiet before the flag's put (line 8) completes the data's
// delivery first: cost 2, and no other set of cost 2 works (a quiet on
// rank 3, which has nothing pending on c, or after both puts, orders
// nothing). The puts name rank 3: N = 3 only.
const mpTwoPEs = `values 2
context c
address one, data, flag, x
register r
    mem[one] <- 1
    if rank == 1 {
        putmem_nbi(one, 2, data, c)
        putmem_nbi(one, 3, flag, c)
    }
    if rank == 3 {
        r <- mem[flag]
        getmem(x, 2, data, c)
    }
`

// reuse: rank 1 overwrites the source of a non-blocking put (line 7)
// before the put has read it: send ->po store ->cf popa ↔ send. Fences
// do not order a source read. A quiet before the store (cost 2) or a
// blocking put (cost 3, its source read at the issue) cuts it.
const reuse = `values 2
context c
address buf, data
    if rank == 1 {
        mem[buf] <- 1
        putmem_nbi(buf, 2, data, c)
        mem[buf] <- 0
    }
`

// sb: store buffering through puts of values: each rank puts 1 into the
// other's x, then loads its own x; both can load 0, since each put is
// delivered after the other's load. A fence does not order a load. A
// quiet before the load (cost 2) does; so does making the put a fetching
// atomic (cost 3), which is one event, done before the load: every
// computation is then sequentially consistent. r is written by the load
// after the put and read nowhere, so the atomic reuses it.
const sb = `values 2
context c
address x
register r
    putval(1, N - rank + 1, x, c)
    r <- mem[x]
`

func TestRepairShmem(t *testing.T) {
	at := func(l, c int) pgas.Pos { return pgas.Pos{Line: l, Col: c} }
	cases := []struct {
		name, src string
		ns        []int
		costs     string
		want      []Candidate
		cost      int64
		text      string // in the repaired source
	}{
		{"mp one PE", mpOnePE, []int{2, 3}, "", []Candidate{{Kind: Fence, Queue: "c", At: at(8, 9)}}, 1,
			"        putmem_nbi(one, 2, data, c)\n        fence c\n        putmem_nbi(one, 2, flag, c)\n"},
		{"mp two PEs", mpTwoPEs, []int{3}, "", []Candidate{{Kind: Quiet, Queue: "c", At: at(8, 9)}}, 2,
			"        putmem_nbi(one, 2, data, c)\n        quiet c\n        putmem_nbi(one, 3, flag, c)\n"},
		{"reuse", reuse, []int{2}, "", []Candidate{{Kind: Quiet, Queue: "c", At: at(7, 9)}}, 2,
			"        quiet c\n        mem[buf] <- 0\n"},
		{"reuse, quiet dear", reuse, []int{2}, "quiet 9\n", []Candidate{{Kind: Blocking, Op: at(6, 9)}}, 3,
			"        putmem(buf, 2, data, c)\n"},
		{"sb", sb, []int{2}, "", []Candidate{{Kind: Quiet, Queue: "c", At: at(6, 5)}}, 2,
			"    quiet c\n    r <- mem[x]\n"},
		{"sb, quiet dear", sb, []int{2}, "quiet 9\n", []Candidate{{Kind: Atomic, Op: at(5, 5)}}, 3,
			"register r\n    r <- amo_swap(1, N - rank + 1, x, c)\n    r <- mem[x]\n"},
	}
	for _, tc := range cases {
		cs := DefaultCosts()
		if tc.costs != "" {
			var err error
			if cs, err = ParseCosts("costs", []byte(tc.costs)); err != nil {
				t.Fatal(err)
			}
		}
		res, err := Repair(tc.name+".pgas", []byte(tc.src), tc.ns, Options{Costs: cs})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Verdict != Repaired || len(res.Insertions) != len(tc.want) {
			t.Fatalf("%s: %v %s, insertions %+v", tc.name, res.Verdict, res.Reason, res.Insertions)
		}
		for i, w := range tc.want {
			if res.Insertions[i].Candidate != w {
				t.Errorf("%s: insertion %+v, want %+v", tc.name, res.Insertions[i].Candidate, w)
			}
		}
		if res.Cost != tc.cost || !res.Minimality.Proven {
			t.Errorf("%s: cost %d (want %d), minimality %+v", tc.name, res.Cost, tc.cost, res.Minimality)
		}
		if !strings.Contains(string(res.Source), tc.text) {
			t.Errorf("%s: no %q in\n%s", tc.name, tc.text, res.Source)
		}
		// Independently of the repair's own checks: the repaired text
		// decides robust and the oracle explored it all.
		p, err := pgas.Compile("r.pgas", res.Source)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, res.Source)
		}
		for i, n := range tc.ns {
			if d, err := cycles.Decide(p, n, cycles.Options{}); err != nil || d.Verdict != cycles.Robust {
				t.Errorf("%s N = %d: repaired program %v %v", tc.name, n, d.Verdict, err)
			}
			if o := res.Oracle[i]; !o.Complete {
				t.Errorf("%s N = %d: oracle incomplete: %+v", tc.name, n, o)
			}
		}
	}
}

// A register live across the putval is not taken: a new one is declared
// beside the others, and the text compiles.
func TestRepairShmemFreshRegister(t *testing.T) {
	src := "values 2\ncontext c\naddress x, y\nregister r\n    r <- mem[y]\n    putval(1, N - rank + 1, x, c)\n    mem[y] <- r\n"
	out, err := Apply("f.pgas", []byte(src), []Candidate{{Kind: Atomic, Op: pgas.Pos{Line: 6, Col: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "values 2\ncontext c\naddress x, y\nregister r, t\n    r <- mem[y]\n    t <- amo_swap(1, N - rank + 1, x, c)\n    mem[y] <- r\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := pgas.Compile("f.pgas", out); err != nil {
		t.Fatal(err)
	}
}

// On random programs with contexts, checked against the brute-force
// oracle as TestRepairRandomAgainstOracle does for queues: a repaired
// program has no violation, and no cheaper set of candidates (the
// OpenSHMEM remedies among them) is robust by the oracle. Twice: with the
// default costs, and with a dear quiet, so that blocking operations and
// atomics are chosen too.
func TestRepairRandomShmemAgainstOracle(t *testing.T) {
	dear, err := ParseCosts("dear", []byte("quiet 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cs := range []Costs{DefaultCosts(), dear} {
		kinds := randomShmemRepairs(t, cs)
		t.Logf("costs %v: insertions by kind %v", cs.Kind, kinds)
		if kinds[Fence]+kinds[Quiet]+kinds[Blocking]+kinds[Atomic] == 0 {
			t.Errorf("costs %v: no OpenSHMEM remedy chosen", cs.Kind)
		}
	}
}

func randomShmemRepairs(t *testing.T, cs Costs) map[Kind]int {
	r := rand.New(rand.NewPCG(3, 3))
	bounds := oracle.Bounds{MaxQueue: 4, MaxNodes: 200_000}
	repaired, proved, kinds := 0, 0, map[Kind]int{}
	for i := 0; i < 600 && repaired < 10; i++ {
		gp := gen.Generate(r, gen.Config{Addrs: 2, Queues: 1, Values: 2, Cmds: 5, Shmem: true})
		src := []byte(gp.String())
		if p, err := pgas.Compile("rand.pgas", src); err != nil || !p.HasCtx() {
			continue
		}
		res, err := Repair("rand.pgas", src, []int{2}, Options{Costs: cs, Decide: cycles.Options{MaxStates: 200_000}})
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if res.Verdict != Repaired {
			continue
		}
		repaired++
		for _, in := range res.Insertions {
			kinds[in.Kind]++
		}
		p, err := pgas.Compile("r", res.Source)
		if err != nil {
			t.Fatal(err)
		}
		if o := oracle.Explore(p, 2, bounds); o.Violation != nil {
			t.Fatalf("oracle: the repaired program has a violation\n%s", res.Source)
		}
		if !res.Minimality.Proven {
			continue
		}
		cands, err := Candidates("r", src)
		if err != nil {
			t.Fatal(err)
		}
		var rec func(from int, set []Candidate, sum int64)
		rec = func(from int, set []Candidate, sum int64) {
			if out, err := Apply("r", src, set); err == nil {
				if q, err := pgas.Compile("r", out); err == nil && pgas.CheckN(q, 2) == nil {
					o := oracle.Explore(q, 2, bounds)
					if o.Complete && o.Violation == nil && o.RangeErr == nil {
						t.Fatalf("cheaper set %+v (cost %d < %d) is robust by the oracle\n%s\nrepair chose %+v", set, sum, res.Cost, out, res.Insertions)
					}
				}
			}
			for k := from; k < len(cands); k++ {
				if c := cs.Of(cands[k]); sum+c < res.Cost {
					rec(k+1, append(set, cands[k]), sum+c)
				}
			}
		}
		rec(0, nil, 0)
		proved++
	}
	if repaired < 5 || proved < 5 {
		t.Fatalf("only %d programs repaired, %d minimal ones checked", repaired, proved)
	}
	return kinds
}

// Every example of the OpenSHMEM statements is robust already or repaired,
// with a proven minimum, at N = 2 (each repair passes its own re-decision
// and oracle check inside Repair).
func TestRepairShmemExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/shmem-calculus/*.pgas")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	repaired := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Repair(f, src, []int{2}, Options{Costs: DefaultCosts()})
		switch {
		case err != nil:
			t.Errorf("%s: %v", f, err)
		case res.Verdict == Repaired && res.Minimality.Proven:
			repaired++
		case res.Verdict != AlreadyRobust:
			t.Errorf("%s: %v %s, minimality %+v", f, res.Verdict, res.Reason, res.Minimality)
		}
	}
	if repaired == 0 {
		t.Errorf("no example needed a repair")
	}
}
