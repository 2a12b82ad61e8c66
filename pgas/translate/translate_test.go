package translate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/gen"
	tsoprog "github.com/pgasrob/pgasrob/tso/prog"
)

// threadText returns the transitions of thread rankR, instructions only,
// joined by " ; ".
func threadText(t *testing.T, src string, n, r int) string {
	t.Helper()
	p, err := pgas.Compile("t.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := pgas.CheckN(p, n); err != nil {
		t.Fatal(err)
	}
	res, err := Translate(p, n)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := tsoprog.ParseProgram("t.txt", res.Text)
	if err != nil {
		t.Fatalf("the translation does not parse: %v\n%s", err, res.Text)
	}
	th := tp.Threads[r-1]
	if len(res.Origins[r-1]) != len(th.Trans) {
		t.Fatalf("%d origins for %d transitions", len(res.Origins[r-1]), len(th.Trans))
	}
	var ins []string
	for _, tr := range th.Trans {
		ins = append(ins, tr.Text)
	}
	return strings.Join(ins, " ; ")
}

const head = "values 2\naddress x, y, z\nregister r\nqueue q, p\n"

// TestRules checks each rule of docs/translate.md on a small program: the
// instructions rank R's thread gets, in order.
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		rule, src string
		n, rank   int
		want      string
	}{
		{"T5 local load", "r <- mem[y]", 2, 2, "read r 4"},
		{"T6 local store, private cell", "mem[x] <- 1", 2, 1, "write 1 0"},
		{"T6 local store, cell others reach", "mem[y] <- 1\nwrite(x, 2, y, q)", 2, 1, "write 1 1 ; sfence ; read $v 0 ; write $v 4"},
		{"T7 remote write", "write(x, 2, y, q)", 2, 1, "read $v 0 ; write $v 4"},
		{"T7 remote read", "read(x, 1, y, q)", 2, 2, "read $v 1 ; write $v 3"},
		{"T8 queue fence", "write(x, 2, y, q)\nwrite(x, 2, z, q)", 2, 1, "read $v 0 ; fence 4 5 ; write $v 4 ; read $v 0 ; fence 4 5 ; write $v 5"},
		{"T8 other queue, no fence", "write(x, 2, y, q)\nwrite(x, 2, z, p)", 2, 1, "read $v 0 ; write $v 4 ; read $v 0 ; write $v 5"},
		{"T9 wait", "write(x, 2, y, q) -> h\nwait h", 2, 1, "noop ; noop ; read $v 0 ; write $v 6 ; noop ; sfence"},
		{"T9 put", "put(x, 2, y, q)", 2, 1, "noop ; noop ; read $v 0 ; write $v 6 ; noop ; sfence"},
		{"T10 barrier, rank 1", "barrier", 3, 1, "local $k + 1 == $k 1 ; read $b 10 ; check == $b $k ; read $b 11 ; check == $b $k ; write $k 9"},
		{"T10 barrier, rank 2", "barrier", 3, 2, "local $k + 1 == $k 1 ; write $k 10 ; read $b 9 ; check == $b $k"},
		{"T10 barrier, N = 1", "barrier", 1, 1, "noop"},
		{"T4 value range", "r <- 1\nmem[x] <- r + 1", 2, 1, "local r 1 ; check && >= + r 1 0 <= + r 1 1 ; write + r 1 0"},
		{"T4 address range", "r <- mem[x]\nmem[r + 2] <- 1", 2, 1, "read r 0 ; check && >= + r 2 0 <= + r 2 2 ; write 1 + r 2"},
		{"T4 always in range", "r <- mem[x]\nmem[r + 1] <- 1", 2, 1, "read r 0 ; write 1 + r 1"},
		{"T4 constant out of range", "write(x, 2 * rank, y, q)", 2, 2, "check 0"},
		{"T3 assume", "assume rank == 1", 2, 2, "check 0"},
		{"T3 remainder", "write(x, r % N + 1, y, q)", 2, 1, "read $v 0 ; fence 1 4 ; write $v + * - + r 1 1 3 1"},
	} {
		got := threadText(t, head+tc.src+"\n", tc.n, tc.rank)
		if got != tc.want {
			t.Errorf("%s: rank %d got\n  %s\nwant\n  %s", tc.rule, tc.rank, got, tc.want)
		}
	}
}

// TestDivide checks the expansion of / and % (T3) against pgas's own
// evaluation for every register value.
func TestDivide(t *testing.T) {
	for _, e := range []string{"r / 3", "r % 3", "(r + rank) % N", "(r * 2) / (s + 1)", "r % (s + 1)", "-(r % 2)", "r / s"} {
		src := "values 8\naddress a\nregister r, s, u\n    u <- " + e + "\n"
		p, err := pgas.Compile("d.pgas", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		const n = 3
		res, err := Translate(p, n)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		tp, err := tsoprog.ParseProgram("d.txt", res.Text)
		if err != nil {
			t.Fatal(err)
		}
		for rank := 1; rank <= n; rank++ {
			th := tp.Threads[rank-1]
			var cond, val *tsoprog.Expr
			for _, tr := range th.Trans {
				switch tr.Op {
				case tsoprog.OpCheck:
					cond = tr.Val
				case tsoprog.OpLocal:
					val = tr.Val
				}
			}
			for r := int64(0); r < 8; r++ {
				for s := int64(0); s < 8; s++ {
					want, err := p.Trans[0].Cmd.Val.Eval(pgas.Env{Regs: []int64{r, s, 0}, Rank: int64(rank), N: n})
					regs := make([]int64, len(th.Regs))
					for i, name := range th.Regs {
						regs[i] = map[string]int64{"r": r, "s": s}[name]
					}
					ok := err == nil && want >= 0 && want < 8
					if cond != nil && (cond.Eval(regs) != 0) != ok {
						t.Errorf("%s, r=%d s=%d rank %d: guard says %v, pgas %v (%v)", e, r, s, rank, cond.Eval(regs) != 0, ok, err)
					}
					if ok && val.Eval(regs) != want {
						t.Errorf("%s, r=%d s=%d rank %d: %d, want %d", e, r, s, rank, val.Eval(regs), want)
					}
				}
			}
		}
	}
}

func TestRefused(t *testing.T) {
	p, err := pgas.Compile("n.pgas", []byte("values 4\naddress a\nregister r, u\n    u <- (r - 2) / 2 + 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Translate(p, 2)
	if err == nil || !strings.Contains(err.Error(), "n.pgas:4:") || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("want a positioned refusal of a negative dividend, got %v", err)
	}
}

// FuzzTranslate: every program the front end accepts translates into a
// program that package tso parses, with one origin per transition, or is
// refused with a position (a dividend that may be negative).
func FuzzTranslate(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 0))
	for i := 0; i < 20; i++ {
		f.Add(gen.Generate(r, gen.Config{Addrs: 2, Queues: 2, Values: 3, Loops: i%2 == 0}).String(), 2)
	}
	f.Add(head+"    barrier\n    get(x, 1, y, q)\n    waitq p\n", 3)
	f.Fuzz(func(t *testing.T, src string, n int) {
		if n < 1 || n > 4 {
			return
		}
		p, err := pgas.Compile("f.pgas", []byte(src))
		if err != nil || pgas.CheckN(p, n) != nil {
			return
		}
		res, err := Translate(p, n)
		if err != nil {
			if !strings.Contains(err.Error(), "f.pgas:") {
				t.Fatalf("refusal without a position: %v", err)
			}
			return
		}
		tp, err := tsoprog.ParseProgram("f.txt", res.Text)
		if err != nil {
			t.Fatalf("the translation does not parse: %v\n%s", err, res.Text)
		}
		for i, th := range tp.Threads {
			if len(res.Origins[i]) != len(th.Trans) {
				t.Fatalf("thread %d: %d origins for %d transitions", i, len(res.Origins[i]), len(th.Trans))
			}
		}
	})
}

// TestRefusesShmem checks that every OpenSHMEM command, and a user's await,
// is refused by name with its position, and that declaring a context alone
// is not.
func TestRefusesShmem(t *testing.T) {
	const h = "values 2\naddress x, y\nregister r\nqueue q\ncontext c\nbarrier\n"
	for _, tc := range []struct{ stmt, name string }{
		{"putmem(x, 2, y, c)", "putmem"},
		{"putmem_nbi(x, 2, y, c)", "putmem_nbi"},
		{"putval(1, 2, y, c)", "putval"},
		{"getmem(x, 2, y, c)", "getmem"},
		{"getmem_nbi(x, 2, y, c)", "getmem_nbi"},
		{"fence c", "fence"},
		{"quiet c", "quiet"},
		{"amo_inc(2, y, c)", "amo_inc"},
		{"r <- amo_fetch(2, y, c)", "amo_fetch"},
		{"r <- amo_cswap(0, 1, 2, y, c) when r == 0", "amo_cswap"},
		{"put_signal(x, 2, y, x, 1, c)", "put_signal"},
		{"  r <- mem[y] when r == 1", "await"},
	} {
		p, err := pgas.Compile("s.pgas", []byte(h+tc.stmt+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		col := len(tc.stmt) - len(strings.TrimLeft(tc.stmt, " ")) + 1
		want := fmt.Sprintf("the instrumentation route does not take OpenSHMEM commands: %s at s.pgas:7:%d", tc.name, col)
		if _, err := Translate(p, 2); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", tc.stmt, err, want)
		}
	}
	p, err := pgas.Compile("s.pgas", []byte(h+"write(x, 2, y, q)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Translate(p, 2); err != nil {
		t.Errorf("a program that only declares a context: %v", err)
	}
}
