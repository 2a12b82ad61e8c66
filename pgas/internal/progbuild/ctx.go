package progbuild

import (
	"fmt"
	"math/rand/v2"

	"github.com/pgasrob/pgasrob/pgas"
)

// The OpenSHMEM commands (docs/shmem-calculus.md). A context operand is
// an expression for E, usually a queue name marked by Contexts.

// Contexts marks the named queues as OpenSHMEM contexts.
func (b *Builder) Contexts(names ...string) {
	if b.p.Ctx == nil {
		b.p.Ctx = make([]bool, len(b.p.Queues))
	}
	for _, n := range names {
		i := index(b.p.Queues, n)
		if i < 0 {
			panic("test program: unknown context " + n)
		}
		b.p.Ctx[i] = true
	}
}

// PutNbi is putmem_nbi: send mem[loc] to rem of rank on ctx, reading the
// source at any time before delivery.
func (b *Builder) PutNbi(loc, rank, rem, ctx string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpSend, Reg: -1, Local: b.E(loc), Rank: b.E(rank), Remote: b.E(rem), Queue: b.E(ctx)}
}

// Put is the blocking putmem: the source is read when it returns.
func (b *Builder) Put(loc, rank, rem, ctx string) pgas.Cmd {
	c := b.PutNbi(loc, rank, rem, ctx)
	c.Blocking = true
	return c
}

// Chained marks c as a further data send of the put-with-signal begun by
// the rank's previous send (Cmd.Chain).
func Chained(c pgas.Cmd) pgas.Cmd {
	c.Chain = true
	return c
}

// PutVal is shmem_p: the value val, evaluated at issue.
func (b *Builder) PutVal(val, rank, rem, ctx string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpSend, Reg: -1, Val: b.E(val), Rank: b.E(rank), Remote: b.E(rem), Queue: b.E(ctx)}
}

// AmoAdd is the non-fetching atomic add of val to rem of rank.
func (b *Builder) AmoAdd(val, rank, rem, ctx string) pgas.Cmd {
	c := b.PutVal(val, rank, rem, ctx)
	c.Amo = pgas.AmoAdd
	return c
}

// Signal is the signal half of put_signal: val set (add false) or added
// to rem of rank after the rank's previous send is delivered.
func (b *Builder) Signal(val, rank, rem, ctx string, add bool) pgas.Cmd {
	c := b.PutVal(val, rank, rem, ctx)
	c.After = true
	if add {
		c.Amo = pgas.AmoAdd
	}
	return c
}

// GetNbi is getmem_nbi: copy rem of rank into the own loc.
func (b *Builder) GetNbi(loc, rank, rem, ctx string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpRecv, Reg: -1, Local: b.E(loc), Rank: b.E(rank), Remote: b.E(rem), Queue: b.E(ctx)}
}

// Fence is fence ctx.
func (b *Builder) Fence(ctx string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpFence, Reg: -1, Queue: b.E(ctx)}
}

// Quiet is quiet ctx.
func (b *Builder) Quiet(ctx string) pgas.Cmd {
	return pgas.Cmd{Op: pgas.OpQuiet, Reg: -1, Queue: b.E(ctx)}
}

// Atomic is reg <- atomic(amo, rank, rem, val, cmp, ctx); val and cmp are
// "" where amo has no such operand.
func (b *Builder) Atomic(reg string, amo pgas.AmoOp, rank, rem, val, cmp, ctx string) pgas.Cmd {
	c := pgas.Cmd{Op: pgas.OpAtomic, Reg: index(b.p.Regs, reg), Amo: amo, Rank: b.E(rank), Remote: b.E(rem), Queue: b.E(ctx)}
	if val != "" {
		c.Val = b.E(val)
	}
	if cmp != "" {
		c.Val2 = b.E(cmp)
	}
	return c
}

// AtomicWhen is Atomic with a guard: an atomic await.
func (b *Builder) AtomicWhen(reg string, amo pgas.AmoOp, rank, rem, val, cmp, ctx, guard string) pgas.Cmd {
	c := b.Atomic(reg, amo, rank, rem, val, cmp, ctx)
	c.Guard = b.E(guard)
	return c
}

// RandomCtx builds a small random program with the OpenSHMEM commands:
// two addresses, one register, a FIFO queue q and two contexts c0, c1,
// DOM = {0,1}, like Random. Sends come alone or as put-with-signal
// pairs. Tests depend on the programs drawn for a seed, so the rng calls
// here must not change.
func RandomCtx(rng *rand.Rand, ncmds int, loops, bad bool) *pgas.Program {
	return randomCtx(rng, ncmds, loops, bad, false)
}

// RandomCtxChain is RandomCtx whose put-with-signal calls carry one to
// three data sends (Cmd.Chain), of either blocking kind, each with its
// own cells.
func RandomCtxChain(rng *rand.Rand, ncmds int, loops, bad bool) *pgas.Program {
	return randomCtx(rng, ncmds, loops, bad, true)
}

func randomCtx(rng *rand.Rand, ncmds int, loops, bad, chains bool) *pgas.Program {
	b := New("rndctx", 2, []string{"x", "y"}, []string{"r"}, []string{"q", "c0", "c1"})
	b.Contexts("c0", "c1")
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	addr := func() string { return pick("x", "y", "r") }
	rnk := func() string { return pick("1", "rank", "rank N % 1 +") }
	val := func() string { return pick("0", "1", "r", "1 r -") }
	if bad {
		addr = func() string { return pick("x", "y", "r 1 +", "x 2 +") }
		val = func() string { return pick("0", "r 1 +") }
	}
	ctx := func() string { return pick("c0", "c0", "c1") }
	state := func(i int) string {
		if i == 0 {
			return "start"
		}
		return fmt.Sprintf("s%d", i)
	}
	amos := []pgas.AmoOp{pgas.AmoAdd, pgas.AmoSwap, pgas.AmoCSwap, pgas.AmoFetch}
	for i := 0; i < ncmds; i++ {
		var cs []pgas.Cmd
		switch rng.IntN(13) {
		case 0:
			cs = append(cs, b.Load("r", addr()))
		case 1:
			cs = append(cs, b.Store(addr(), val()))
		case 2:
			cs = append(cs, b.Await("r", addr(), pick("r", "r 0 ==")))
		case 3:
			cs = append(cs, b.PutNbi(addr(), rnk(), addr(), ctx()))
		case 4:
			cs = append(cs, b.Put(addr(), rnk(), addr(), ctx()))
		case 5:
			cs = append(cs, b.PutVal(val(), rnk(), addr(), ctx()))
		case 6:
			cs = append(cs, b.AmoAdd("1", rnk(), addr(), ctx()))
		case 7:
			c, k := ctx(), rnk()
			cs = append(cs, b.PutNbi(addr(), k, addr(), c))
			extra := 0
			if chains {
				extra = rng.IntN(3)
			}
			for j := 0; j < extra; j++ {
				cs = append(cs, Chained(pick2(rng, b.PutNbi(addr(), k, addr(), c), b.Put(addr(), k, addr(), c))))
			}
			cs = append(cs, b.Signal("1", k, addr(), c, rng.IntN(2) == 0))
		case 8:
			cs = append(cs, b.GetNbi(addr(), rnk(), addr(), ctx()))
		case 9:
			cs = append(cs, b.Fence(ctx()))
		case 10:
			cs = append(cs, b.Quiet(ctx()))
		case 11:
			a := amos[rng.IntN(len(amos))]
			v, cmp := "", ""
			if a != pgas.AmoFetch {
				v = val()
			}
			if a == pgas.AmoCSwap {
				cmp = pick("0", "1")
			}
			cs = append(cs, b.Atomic("r", a, rnk(), addr(), v, cmp, ctx()))
		case 12:
			cs = append(cs, pick2(rng, Barrier(), b.Write(addr(), rnk(), addr(), "q")))
		}
		from, to := state(i), state(i+1)
		if loops && rng.IntN(4) == 0 {
			to = state(rng.IntN(i + 1))
		}
		for k, c := range cs {
			next := to
			if k < len(cs)-1 {
				next = fmt.Sprintf("s%d.%d", i, k)
			}
			b.Edge(from, next, c)
			from = next
		}
	}
	return b.Build()
}

func pick2(rng *rand.Rand, a, b pgas.Cmd) pgas.Cmd {
	if rng.IntN(2) == 0 {
		return a
	}
	return b
}
