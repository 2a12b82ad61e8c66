package tso

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/oracle"
	"github.com/pgasrob/pgasrob/tso/prog"
)

func loadExample(t *testing.T, name string) *prog.Program {
	t.Helper()
	file := filepath.Join("..", "examples", "tso", name)
	if strings.HasPrefix(name, "testdata/") {
		file = name
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.ParseProgram(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func fenceNames(p *prog.Program, fs []Fence) string {
	var s []string
	for _, f := range fs {
		s = append(s, p.Threads[f.Thread].Name+"@"+p.Threads[f.Thread].Labels[f.Label])
	}
	return strings.Join(s, " ")
}

// TestFencesExamples: the fence sets on examples/tso, by hand.
//   - Robust programs need no fence.
//   - sb: each thread's only attack is (its store, its load), with L_A =
//     {q1}; a fence in one thread leaves the other thread's attack
//     feasible (the programs are symmetric), so both q1 are needed.
//   - sb-loop: the attacks (write x=1, read y) and (write x=0, read y) of
//     t0 both pass through q1 before the load, so the fence at q1 kills
//     both; the same for t1: again {t0@q1, t1@q1}.
//   - lock-rmw: t0's stores are followed by unlock or nothing, so only t1's
//     attack (write y, read s) is feasible; its only location is q1.
func TestFencesExamples(t *testing.T) {
	cases := []struct {
		file, want string
	}{
		{"2+2w.txt", ""},
		{"iriw.txt", ""},
		{"lb.txt", ""},
		{"mp.txt", ""},
		{"mp-fence.txt", ""},
		{"mp-wrong-fence.txt", ""},
		{"sb-fenced.txt", ""},
		{"sb.txt", "t0@q1 t1@q1"},
		{"sb-loop.txt", "t0@q1 t1@q1"},
		{"lock-rmw.txt", "t1@q1"},
		// Unbounded tickets: infeasible attacks cannot be refuted by
		// search, so only the per-round budget lets the rounds end; the
		// four fences leave every attack refuted syntactically (hand
		// argument in the file).
		{"testdata/bakery-loop.txt", "t0@q1 t0@q7 t1@q1 t1@q7"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p := loadExample(t, c.file)
			r := findFences(p, prog.TSO, FenceOptions{Options: Options{MaxStates: 1_000_000, Jobs: 2}})
			if r.Verdict != prog.Robust {
				t.Fatalf("verdict %v: %s", r.Verdict, r.Reason)
			}
			if got := fenceNames(p, r.Fences); got != c.want {
				t.Fatalf("fences %q, want %q", got, c.want)
			}
			if r.Certificate == nil || r.Certificate.Verdict != prog.Robust {
				t.Fatal("fence set without a robust certificate")
			}
			// The certificate is independent of FindFences' bookkeeping:
			// re-check the fenced program from its printed text.
			q, err := prog.ParseProgram("fenced", []byte(r.Fenced.String()))
			if err != nil {
				t.Fatalf("fenced program does not parse: %v\n%s", err, r.Fenced)
			}
			if v := check(q, prog.TSO, Options{MaxStates: 1_000_000, Jobs: 2}).Verdict; v != prog.Robust {
				t.Fatalf("re-parsed fenced program: %v\n%s", v, r.Fenced)
			}
		})
	}
}

// TestFencesMinimalBrute: on small programs, no fence set one smaller than
// the answer makes the program robust (brute force over every set of
// locations of that size; smaller sets need not be tried, since removing
// fences only adds behaviours). Under PSO this is the only evidence of
// minimality: the corpus lists TSO counts only.
func TestFencesMinimalBrute(t *testing.T) {
	cases := []struct {
		file string
		m    prog.Model
	}{
		{"sb.txt", prog.TSO}, {"sb-loop.txt", prog.TSO}, {"lock-rmw.txt", prog.TSO},
		{"sb.txt", prog.PSO}, {"sb-loop.txt", prog.PSO}, {"mp.txt", prog.PSO}, {"2+2w.txt", prog.PSO}, {"mp-wrong-fence.txt", prog.PSO}, {"lock-rmw.txt", prog.PSO},
	}
	for _, c := range cases {
		file, m := c.file, c.m
		p := loadExample(t, file)
		r := findFences(p, m, FenceOptions{Options: Options{MaxStates: 1_000_000, Jobs: 2}})
		if r.Verdict != prog.Robust {
			t.Fatalf("%s %v: %v %s", file, m, r.Verdict, r.Reason)
		}
		if k := len(r.Fences); k == 0 {
			t.Fatalf("%s %v: no fence for a non-robust program", file, m)
		}
		var all []Fence
		for ti, th := range p.Threads {
			for l := range th.Labels {
				all = append(all, Fence{ti, l})
			}
		}
		k := len(r.Fences) - 1
		var rec func(from int, cur []Fence)
		rec = func(from int, cur []Fence) {
			if len(cur) == k {
				if v := check(insertFences(p, cur), m, Options{MaxStates: 1_000_000, Jobs: 2}).Verdict; v != prog.NotRobust {
					t.Errorf("%s %v: %s gives %v, smaller than the minimum %d", file, m, fenceNames(p, cur), v, len(r.Fences))
				}
				return
			}
			for i := from; i < len(all); i++ {
				rec(i+1, append(cur, all[i]))
			}
		}
		rec(0, nil)
	}
}

// TestInsertFences: the construction keeps indices of p and reroutes the
// fenced location's instructions through the fresh location.
func TestInsertFences(t *testing.T) {
	p := loadExample(t, "sb-loop.txt")
	q := insertFences(p, []Fence{{0, 1}, {0, 1}})
	th, orig := q.Threads[0], p.Threads[0]
	if len(th.Trans) != len(orig.Trans)+1 || len(th.Labels) != len(orig.Labels)+1 {
		t.Fatalf("got %d transitions, %d labels", len(th.Trans), len(th.Labels))
	}
	f := th.Trans[len(th.Trans)-1]
	if f.Op != prog.OpMFence || f.From != 1 || f.To != len(orig.Labels) {
		t.Fatalf("fence transition %+v", f)
	}
	if th.Trans[1].From != len(orig.Labels) || len(th.Out[1]) != 1 {
		t.Fatalf("q1's load not moved behind the fence: %+v", th.Trans[1])
	}
	if len(p.Threads[0].Trans) != 3 || p.Threads[0].Trans[1].From != 1 {
		t.Fatal("insertFences changed its input")
	}
	if q.Threads[1] == p.Threads[1] {
		t.Fatal("threads shared with the input")
	}
}

// TestFencesCorpus: for every corpus file, the minimum fence count equals
// the reference tool's (EXPECTED, third column), and the fenced program is
// certified robust under TSO.
func TestFencesCorpus(t *testing.T) {
	dir := corpusDir(t)
	data, err := os.ReadFile(filepath.Join(dir, "EXPECTED"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		fs := strings.Fields(line)
		if len(fs) < 3 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		file := fs[0]
		want, err := strconv.Atoi(fs[2])
		if err != nil {
			t.Fatalf("EXPECTED: bad fence count in %q", line)
		}
		t.Run(file, func(t *testing.T) {
			p := loadCorpus(t, dir, file)
			r := findFences(p, prog.TSO, FenceOptions{Options: Options{MaxStates: 2_000_000, Jobs: 2}})
			if r.Verdict != prog.Robust {
				t.Fatalf("verdict %v: %s", r.Verdict, r.Reason)
			}
			if len(r.Fences) != want {
				t.Fatalf("%d fences (%s), want %d", len(r.Fences), fenceNames(p, r.Fences), want)
			}
			// Rounds with a tiny per-attack budget leave most attacks
			// undecided; the search must still end at a minimum set.
			tiny := findFences(p, prog.TSO, FenceOptions{Options: Options{MaxStates: 2_000_000, Jobs: 2}, RoundStates: 3})
			if tiny.Verdict != prog.Robust || len(tiny.Fences) != want {
				t.Fatalf("round budget 3: verdict %v (%s), %d fences, want %d", tiny.Verdict, tiny.Reason, len(tiny.Fences), want)
			}
			if r.Certificate == nil || r.Certificate.Verdict != prog.Robust {
				t.Fatal("fence set without a robust certificate")
			}
			t.Logf("%d fences: %s; %d rounds, %d constraints, %v", len(r.Fences), fenceNames(p, r.Fences), r.Rounds, r.Constraints, r.Elapsed)
			checkWritten(t, filepath.Join(dir, file), p, r.Fences, prog.TSO)
		})
	}
}

// checkWritten writes the fenced program in the input format, reads it
// back and checks it: robust, as many fences as asked, every comment of
// the input kept.
func checkWritten(t *testing.T, file string, p *prog.Program, fs []Fence, m prog.Model) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out, err := WriteFenced(src, p, fs)
	if err != nil {
		t.Fatalf("WriteFenced: %v", err)
	}
	q, err := prog.ParseProgram(file+".fenced", out)
	if err != nil {
		t.Fatalf("the written program does not parse: %v\n%s", err, out)
	}
	if v := check(q, m, Options{MaxStates: 2_000_000, Jobs: 2}).Verdict; v != prog.Robust {
		t.Fatalf("the written program is %v\n%s", v, out)
	}
	mfences := func(p *prog.Program) (n int) {
		for _, th := range p.Threads {
			for _, tr := range th.Trans {
				if tr.Op == prog.OpMFence {
					n++
				}
			}
		}
		return n
	}
	if got, want := mfences(q), mfences(p)+len(fs); got != want {
		t.Fatalf("the written program has %d mfences, want %d\n%s", got, want, out)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if c := strings.Index(line, "#"); c >= 0 && !strings.Contains(string(out), line[c:]) {
			t.Fatalf("comment %q lost", line[c:])
		}
	}
}

// TestFencesWeighted: with random costs per position, FindFences returns
// a certified set, and no set of smaller total cost makes the program
// robust (exhaustive search over all positions on small programs).
func TestFencesWeighted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	proved := 0
	for i := 0; i < 400 && proved < 12; i++ {
		src := gen.Generate(rng, gen.Config{Threads: 2 + i%2, Instrs: 3, Addrs: 2})
		p, err := prog.ParseProgram("gen", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var all []Fence
		w := map[Fence]int64{}
		for ti, th := range p.Threads {
			for l := range th.Labels {
				f := Fence{ti, l}
				all, w[f] = append(all, f), int64(rng.IntN(5))+1
			}
		}
		opt := Options{MaxStates: 200_000, Jobs: 2}
		r := findFences(p, prog.TSO, FenceOptions{Options: opt, Cost: func(f Fence) int64 { return w[f] }})
		if r.Verdict != prog.Robust || len(r.Fences) == 0 || len(all) > 12 {
			continue
		}
		var sum int64
		for _, f := range r.Fences {
			sum += w[f]
		}
		if sum != r.Cost {
			t.Fatalf("reported cost %d, fences cost %d", r.Cost, sum)
		}
		proved++
		t.Logf("%d positions, optimum %s of cost %d", len(all), fenceNames(p, r.Fences), r.Cost)
		for mask := 0; mask < 1<<len(all); mask++ {
			var cur []Fence
			var c int64
			for j, f := range all {
				if mask&(1<<j) != 0 {
					cur, c = append(cur, f), c+w[f]
				}
			}
			if c < r.Cost && check(insertFences(p, cur), prog.TSO, opt).Verdict == prog.Robust {
				t.Fatalf("%s (cost %d) is robust, cheaper than %s (cost %d)\n%s", fenceNames(p, cur), c, fenceNames(p, r.Fences), r.Cost, src)
			}
		}
	}
	if proved < 5 {
		t.Fatalf("only %d weighted fence sets proved optimal", proved)
	}
}

func TestParseCosts(t *testing.T) {
	p, err := prog.ParseProgram("sb.txt", []byte("thread t0\ninitial q0\ntransition q0 q1 write 1 0\ntransition q1 q2 read r 1\nend\nthread t1\ninitial q0\ntransition q0 q1 write 1 1\ntransition q1 q2 read r 0\nend\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCosts("c.txt", []byte("# profile\nt0 q1 7\nt0 * 3\n* q1 5  # any q1\n* * 2\n"), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f    Fence
		want int64
	}{{Fence{0, 1}, 7}, {Fence{0, 0}, 3}, {Fence{1, 1}, 5}, {Fence{1, 0}, 2}} {
		if got := c.Of(p, tc.f); got != tc.want {
			t.Errorf("%s costs %d, want %d", tc.f.Format(p), got, tc.want)
		}
	}
	if got := (&Costs{}).Of(p, Fence{0, 0}); got != 1 {
		t.Errorf("no rule: cost %d, want 1", got)
	}
	for _, bad := range []struct{ src, want string }{
		{"t9 q1 1\n", "c.txt:1:1: no thread"},
		{"t0 q9 1\n", "c.txt:1:4: no label"},
		{"t0 q1 -1\n", "c.txt:1:7: cost"},
		{"t0  q1 1e3\n", "c.txt:1:8: cost"},
		{"\nt0 q1\n", "c.txt:2:1: want THREAD LABEL COST"},
		{"t0 q1 1\nt0 q1 2\n", "c.txt:2:1: a second rule"},
	} {
		_, err := ParseCosts("c.txt", []byte(bad.src), p)
		if err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want %q", bad.src, err, bad.want)
		}
	}
}

// TestFencesRandom: on random loop-free programs, under both models, the
// fence set is certified by Check and independently by the brute-force
// oracle on the fenced program (which shares no code with the
// instrumentation), and no set one smaller is robust (brute force, when
// the programs are small enough to try every such set).
func TestFencesRandom(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 25
	}
	fenced, brute := 0, 0
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < n; i++ {
		src := gen.Generate(rng, gen.Config{Threads: 3, Instrs: 3, Addrs: 2, Fences: i%2 == 1})
		p, err := prog.ParseProgram("gen", []byte(src))
		if err != nil {
			t.Fatalf("generated program: %v\n%s", err, src)
		}
		for _, m := range []prog.Model{prog.TSO, prog.PSO} {
			opt := Options{MaxStates: 200_000, Jobs: 2}
			r := findFences(p, m, FenceOptions{Options: opt})
			if r.Verdict != prog.Robust {
				t.Logf("%v: %s (budget)", m, r.Reason)
				continue
			}
			if o := oracle.Robustness(r.Fenced, m, oracle.Budget{MaxNodes: 200_000}); o.Verdict == prog.NotRobust {
				t.Fatalf("%v: oracle finds the fenced program not robust\n%s", m, r.Fenced)
			}
			k := len(r.Fences)
			if k == 0 {
				if check(p, m, opt).Verdict != prog.Robust {
					t.Fatalf("%v: empty fence set for a program not robust\n%s", m, src)
				}
				continue
			}
			var all []Fence
			for ti, th := range p.Threads {
				for l := range th.Labels {
					all = append(all, Fence{ti, l})
				}
			}
			fenced++
			if k > 2 || len(all) > 14 {
				continue
			}
			brute++
			var rec func(from int, cur []Fence)
			rec = func(from int, cur []Fence) {
				if len(cur) == k-1 {
					if v := check(insertFences(p, cur), m, opt).Verdict; v == prog.Robust {
						t.Fatalf("%v: %s is robust, smaller than %s\n%s", m, fenceNames(p, cur), fenceNames(p, r.Fences), src)
					}
					return
				}
				for j := from; j < len(all); j++ {
					rec(j+1, append(cur, all[j]))
				}
			}
			rec(0, nil)
		}
	}
	t.Logf("%d programs: %d fence sets, %d proved minimal by brute force", n, fenced, brute)
	if fenced == 0 || brute == 0 {
		t.Fatal("the generator produced no program that needs a fence: the test checks nothing")
	}
}

// FuzzParseCosts: any cost file gives costs or an error with a position,
// never a panic; the seeds run in the normal suite.
func FuzzParseCosts(f *testing.F) {
	p, err := prog.ParseProgram("sb.txt", []byte("thread t0\ninitial q0\ntransition q0 q1 write 1 0\ntransition q1 q2 read r 1\nend\n"))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"t0 q1 5\n", "* * 1\n# c\n", "t0 q9 1", "t0 q1 -1", "t0\tq0\t99999999999", "* q1 3 4\n", "\x00 * 1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := ParseCosts("c.txt", src, p)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.txt:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		for l := range p.Threads[0].Labels {
			if v := c.Of(p, Fence{0, l}); v < 0 || v > maxCost {
				t.Fatalf("cost %d", v)
			}
		}
	})
}

// BenchmarkFencesCorpus: the fence search on every corpus file, with the
// per-attack round budget (the default) and without it (every round
// decides every attack, as before it), in one run:
//
//	go test ./tso -run '^$' -bench FencesCorpus -count 5 | benchstat -col /rounds -
func BenchmarkFencesCorpus(b *testing.B) {
	dir := corpusDir(b)
	for _, e := range readExpected(b, dir) {
		p := loadCorpus(b, dir, e.file)
		for _, v := range []struct {
			name   string
			states int64
		}{{"budget", 0}, {"unbounded", -1}} {
			b.Run(e.file+"/rounds="+v.name, func(b *testing.B) {
				var r *FenceResult
				for i := 0; i < b.N; i++ {
					r = findFences(p, prog.TSO, FenceOptions{Options: Options{Jobs: 1}, RoundStates: v.states})
					if r.Verdict != prog.Robust {
						b.Fatalf("%v: %s", r.Verdict, r.Reason)
					}
				}
				b.ReportMetric(float64(r.Rounds), "rounds")
				b.ReportMetric(float64(len(r.Fences)), "fences")
			})
		}
	}
}
