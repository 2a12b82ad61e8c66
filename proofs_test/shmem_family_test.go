package proofs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// shmemMenu is what rank 1 does in the programs of TestShmemFamily: every
// OpenSHMEM construct aimed at rank 2, on cells that rank 2 reads.
var shmemMenu = []string{
	"putval(1, 2, x, c)",
	"putval(1, 2, y, c)",
	"putmem_nbi(x, 2, y, c)",
	"putmem(y, 2, x, c)",
	"getmem_nbi(y, 2, x, c)",
	"fence c",
	"quiet c",
	"amo_add(1, 2, y, c)",
	"r <- amo_fetch(2, x, c)",
	"put_signal_nbi(x, 2, x, y, 1, c)",
	"mem[x] <- 1",
}

// shmemObservers is what rank 2 does.
var shmemObservers = []string{
	"r <- mem[y]\n    r <- mem[x]",
	"mem[x] <- 1\n    r <- mem[y]",
}

// TestShmemFamily checks Theorem 5 and Lemma 12 with contexts exhaustively
// on a family rather than at random: rank 1 runs every sequence of three
// statements of shmemMenu, rank 2 one of two observers. Random programs
// seldom put a fence between two sends to one rank, or a quiet or an
// atomic after pending ones; here every such order occurs. Over all of
// C(P,2): some computation is violating iff a violating one is in normal
// form, and Y generates exactly the normal-form computations.
func TestShmemFamily(t *testing.T) {
	step := 17 // a seventeenth in CI; a sixth at full size
	switch {
	case full():
		step = 6
	case testing.Short():
		step = 29
	}
	shmemFamily(t, "x, y", shmemMenu, shmemObservers, step)
}

// chainMenu mixes puts with signal of two elements (Cmd.Chain) with the
// constructs that interact with them: other puts, a fence, a quiet.
var chainMenu = []string{
	"put_signal_nbi(x, 2, x, z, 1, c, 2)",
	"put_signal(x, 2, x, z, 1, c, 2)",
	"putval(1, 2, y, c)",
	"putmem_nbi(z, 2, x, c)",
	"fence c",
	"quiet c",
}

// TestShmemChainFamily is TestShmemFamily for puts with signal of
// several elements: Theorem 5 and Lemma 12 with the chain premise.
func TestShmemChainFamily(t *testing.T) {
	// the puts with signal of two cells are costly, and few members fit
	// the budgets (those that do not are skipped as soon as their
	// computations pass the bound): a 5th in CI, all at full size
	step := 5
	switch {
	case full():
		step = 1
	case testing.Short():
		step = 41
	}
	shmemFamily(t, "x, y, z", chainMenu, chainObservers, step)
}

// chainObservers wait for the signal z, or not, and read a data cell.
var chainObservers = []string{
	"r <- mem[z]\n    r <- mem[x]",
	"r <- mem[y]\n    r <- mem[z]\n    r <- mem[x]",
}

func shmemFamily(t *testing.T, addrs string, menu []string, observers []string, step int) {
	k := len(menu)
	total := k * k * k
	checked, violating := 0, 0
	for i := 0; i < total; i += step {
		a := []string{menu[i/(k*k)], menu[i/k%k], menu[i%k]}
		src := fmt.Sprintf("values 2\naddress %s\nregister r\ncontext c\n\n    if rank != 1 goto OTHER\n    %s; goto END\nOTHER:\n    %s\nEND:\n",
			addrs, strings.Join(a, "\n    "), observers[i%len(observers)])
		p, err := pgas.Compile("family.pgas", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		comps, ok := computations(p, 2, maxEvents, maxComps)
		if !ok {
			continue // too many computations: Y's language is not built
		}
		lang, ok := yLanguage(p, 2, maxEvents, 4*maxComps, false)
		if !ok {
			continue
		}
		checked++
		nf := map[string]bool{}
		anyViol, anyNF := false, false
		for _, tau := range comps {
			hb := pgas.HappensBefore(tau)
			_, isNF := normalForm(tau, hb.Class)
			if isNF {
				nf[key(tau)] = true
			}
			anyViol = anyViol || hb.Violating()
			anyNF = anyNF || hb.Violating() && isNF
		}
		if anyViol {
			violating++
		}
		if anyViol != anyNF {
			t.Errorf("Theorem 5: violating computation %v, violating normal-form computation %v\n%s", anyViol, anyNF, src)
		}
		for s := range nf {
			if !lang[s] {
				t.Errorf("Lemma 12: a normal-form computation that Y does not generate\n%s", src)
				break
			}
		}
		for s := range lang {
			if !nf[s] {
				t.Errorf("Lemma 12: Y generates a computation that is not a normal-form computation of X\n%s", src)
				break
			}
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d programs checked, %d with a violation", checked, violating)
	if checked == 0 || violating == 0 || violating == checked {
		t.Errorf("the family proves little: %d checked, %d violating", checked, violating)
	}
}
