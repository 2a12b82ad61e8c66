package cycles

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The buffer collapse law (docs/deviations.md, entry 15): in a program
// whose buffer b[0..n) is data-independent (no value of it reaches a
// guard, an address, a rank, an awaited condition or an atomic) and
// uniform (every command on it is one of a block of n commands, one per
// element in index order, alike but for the index), the verdict for N
// ranks is the same for every n ≥ N. The cycle of a violation enters and
// leaves each rank at most once, so it has at most N conflict edges, on
// at most N cells of b; projecting a violation onto the elements it uses
// gives one of the smaller program, and the elements a smaller violation
// lacks can be added next to a twin element of the same block.
//
// The tests generate such programs, decide them for n = N and n = N+1
// (and n = 1, to see that the bound is needed), check every decision
// against the oracle, and check the law.

// bufCount overrides the number of programs of TestBufferCollapseLaw
// (for a long run: -args -buf.count=300).
var bufCount = flag.Int("buf.count", 0, "programs of TestBufferCollapseLaw (0: the suite's size)")

// bufOp is one block of commands of a rank: on every element of b, or on
// the flag that carries control.
type bufOp int

const (
	opStoreBuf      bufOp = iota // mem[b_i] <- 1
	opPutBuf                     // putmem(b_i, k, b_i, c)
	opPutNbiBuf                  // putmem_nbi(b_i, k, b_i, c)
	opPutvalBuf                  // putval(1, k, b_i, c)
	opGetBuf                     // getmem(b_i, k, b_i, c)
	opLoadBuf                    // x <- mem[b_i], x never read
	opLoadBufDown                // the same from the last element down
	opGetNbiBufDown              // getmem_nbi(b_i, k, b_i, c), last element first
	opPutFlag                    // putval(1, k, flag, c)
	opStoreFlag                  // mem[flag] <- 1
	opTestFlag                   // r <- mem[flag]; if r == 0 goto END
	opAwaitFlag                  // r <- mem[flag] when r == 1
	opFence                      // fence c
	opQuiet                      // quiet c
	opCount
	// Single-element commands, only with genBufProgram's single: they make
	// b[0] an interval of its own.
	opLoadFirst // x <- mem[b0]
	opPutFirst  // putval(1, k, b0, c)
	opAll
)

// bufStep is an op with its target rank (for the remote ones).
type bufStep struct {
	op bufOp
	k  int
}

// bufProgram is a generated program: the steps of each rank.
type bufProgram [][]bufStep

func genBufProgram(r *rand.Rand, ranks int, single bool) bufProgram {
	ops := int(opCount)
	if single {
		ops = int(opAll)
	}
	p := make(bufProgram, ranks)
	for i := range p {
		steps := 2 + r.IntN(3)
		for s := 0; s < steps; s++ {
			k := 1 + r.IntN(ranks)
			op := bufOp(r.IntN(ops))
			if op == opCount {
				op = opLoadFirst
			}
			p[i] = append(p[i], bufStep{op: op, k: k})
		}
	}
	return p
}

// source writes the program with a buffer of n elements, its stores all
// of 1.
func (p bufProgram) source(n int) string { return p.sourceValued(n, storeOnes) }

// The values a store block writes.
const (
	storeOnes  = iota // 1 to every element
	storeMixed        // i mod 2 to b_i
	storeZeros        // 0, the initial value, to every element
)

// sourceValued writes the program with a buffer of n elements, its store
// blocks writing the values of valued.
func (p bufProgram) sourceValued(n int, valued int) string {
	var b strings.Builder
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("b%d", i)
	}
	fmt.Fprintf(&b, "program buf\nvalues 2\naddress %s, flag\nregister r, x\ncontext c\n\n", strings.Join(names, ", "))
	for i := range p {
		fmt.Fprintf(&b, "    if rank == %d goto R%d\n", i+1, i+1)
	}
	b.WriteString("    goto END\n")
	for i, steps := range p {
		fmt.Fprintf(&b, "R%d:\n", i+1)
		for _, st := range steps {
			writeStep(&b, st, names, valued)
		}
		b.WriteString("    goto END\n")
	}
	b.WriteString("END:\n")
	return b.String()
}

func writeStep(b *strings.Builder, st bufStep, names []string, valued int) {
	each := func(format string) {
		for _, nm := range names {
			fmt.Fprintf(b, "    "+format+"\n", nm)
		}
	}
	down := func(format string) {
		for i := len(names) - 1; i >= 0; i-- {
			fmt.Fprintf(b, "    "+format+"\n", names[i])
		}
	}
	k := st.k
	switch st.op {
	case opStoreBuf:
		for i, nm := range names {
			v := []int{1, i % 2, 0}[valued]
			fmt.Fprintf(b, "    mem[%s] <- %d\n", nm, v)
		}
	case opLoadFirst:
		fmt.Fprintf(b, "    x <- mem[%s]\n", names[0])
	case opPutFirst:
		fmt.Fprintf(b, "    putval(1, %d, %s, c)\n", k, names[0])
	case opPutBuf:
		each(strings.ReplaceAll("putmem(%s, K, %[1]s, c)", "K", fmt.Sprint(k)))
	case opPutNbiBuf:
		each(strings.ReplaceAll("putmem_nbi(%s, K, %[1]s, c)", "K", fmt.Sprint(k)))
	case opPutvalBuf:
		each(strings.ReplaceAll("putval(1, K, %s, c)", "K", fmt.Sprint(k)))
	case opGetBuf:
		each(strings.ReplaceAll("getmem(%s, K, %[1]s, c)", "K", fmt.Sprint(k)))
	case opLoadBuf:
		each("x <- mem[%s]")
	case opLoadBufDown:
		down("x <- mem[%s]")
	case opGetNbiBufDown:
		down(strings.ReplaceAll("getmem_nbi(%s, K, %[1]s, c)", "K", fmt.Sprint(k)))
	case opPutFlag:
		fmt.Fprintf(b, "    putval(1, %d, flag, c)\n", k)
	case opStoreFlag:
		b.WriteString("    mem[flag] <- 1\n")
	case opTestFlag:
		b.WriteString("    r <- mem[flag]\n    if r == 0 goto END\n")
	case opAwaitFlag:
		b.WriteString("    r <- mem[flag] when r == 1\n")
	case opFence:
		b.WriteString("    fence c\n")
	case opQuiet:
		b.WriteString("    quiet c\n")
	}
}

// TestBufferCollapseLaw checks the law on random programs for N = 2 and
// 3, each decision against the oracle.
func TestBufferCollapseLaw(t *testing.T) {
	count := sized(16, 300)
	if testing.Short() {
		count = 30
	}
	if *bufCount > 0 {
		count = *bufCount
	}
	needed := 0 // programs whose verdict at n = 1 differs from n = N
	verdicts := map[string]int{}
	for seed := uint64(0); seed < uint64(count); seed++ {
		r := rand.New(rand.NewPCG(seed, 35))
		ranks := 2 + int(seed%2)
		p := genBufProgram(r, ranks, false)
		got := map[int]string{}
		for _, n := range []int{1, ranks, ranks + 1} {
			c := compareBuf(t, p, n, ranks, seed)
			if c.Status != Agree {
				continue
			}
			got[n] = c.Decide
		}
		a, okA := got[ranks]
		b, okB := got[ranks+1]
		if okA && okB && a != b {
			t.Errorf("seed %d, N = %d: %d elements %s, %d elements %s\n%s", seed, ranks, ranks, a, ranks+1, b, p.source(ranks+1))
		}
		if one, ok := got[1]; ok && okA && one != a {
			needed++
		}
		if okA {
			verdicts[a]++
		}
	}
	t.Logf("verdicts at n = N: %v; programs where one element is not enough: %d", verdicts, needed)
	if len(verdicts) < 2 {
		t.Errorf("the verdicts %v are all alike: the family proves little", verdicts)
	}
}

func compareBuf(t *testing.T, p bufProgram, n, ranks int, seed uint64) Comparison {
	t.Helper()
	return compareSrc(t, p.source(n), n, ranks, seed)
}

func compareSrc(t *testing.T, src string, n, ranks int, seed uint64) Comparison {
	t.Helper()
	prog, err := pgas.Compile("buf.pgas", []byte(src))
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, src)
	}
	c := Compare(prog, ranks, CompareBudget{DecideStates: 300_000, DecideTime: DefaultCompareBudget.DecideTime, Oracle: DefaultCompareBudget.Oracle})
	if c.Status == Disagree {
		t.Errorf("seed %d, N = %d, %d elements: decide %s, oracle %s: %s\n%s", seed, ranks, n, c.Decide, c.Oracle, c.Detail, src)
	}
	return c
}

// TestBufferCollapseIntervals checks the two other reductions of entry
// 15 at N = 2: with commands on b[0] alone, b[0] is an interval of its
// own and b[1..n) another, so the verdict is the same for every n ≥ 1+N
// (3 and 4 elements here); and the stored values do not matter (stores
// of i mod 2, and of 0, against stores of 1, at 3 elements).
func TestBufferCollapseIntervals(t *testing.T) {
	count := sized(16, 200)
	if testing.Short() {
		count = 20
	}
	const ranks = 2
	verdicts := map[string]int{}
	for seed := uint64(0); seed < uint64(count); seed++ {
		r := rand.New(rand.NewPCG(seed, 36))
		p := genBufProgram(r, ranks, true)
		v3 := compareBuf(t, p, 3, ranks, seed)
		v4 := compareBuf(t, p, 4, ranks, seed)
		if v3.Status == Agree && v4.Status == Agree && v3.Decide != v4.Decide {
			t.Errorf("seed %d: 3 elements %s, 4 elements %s\n%s", seed, v3.Decide, v4.Decide, p.source(4))
		}
		for _, valued := range []int{storeMixed, storeZeros} {
			src := p.sourceValued(3, valued)
			vv := compareSrc(t, src, 3, ranks, seed)
			if v3.Status == Agree && vv.Status == Agree && v3.Decide != vv.Decide {
				t.Errorf("seed %d: stores of 1 %s, other stores %s\n%s", seed, v3.Decide, vv.Decide, src)
			}
		}
		if v3.Status == Agree {
			verdicts[v3.Decide]++
		}
	}
	t.Logf("verdicts at 3 elements: %v", verdicts)
	if len(verdicts) < 2 {
		t.Errorf("the verdicts %v are all alike: the family proves little", verdicts)
	}
}
