// What makes an answer weaker than it looks (warnings: a program or a PE
// that communicates nothing), and the modelling choices a program
// exercises (assumptions: docs/shmem.md, "What you are assuming when the
// answer is ROBUST"). Issue 34, items 2 and 6.

package cfront

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// communicates reports whether a command moves data between PEs: a remote
// read or write, a put, get, atomic or signal. Barriers and local accesses
// do not.
func communicates(c *pgas.Cmd) bool {
	switch c.Op {
	case pgas.OpRead, pgas.OpWrite, pgas.OpSend, pgas.OpRecv, pgas.OpAtomic:
		return true
	}
	return false
}

// silentWarnings warns when no SHMEM communication is reachable from the
// program's start, whatever the PE: every answer is then about a program
// in which PEs share nothing.
func silentWarnings(p *pgas.Program, name string) []pgas.Diag {
	if reachesComm(p, nil) {
		return nil
	}
	return []pgas.Diag{{Pos: pgas.Pos{File: name, Line: 1, Col: 1}, Msg: "the program performs no SHMEM communication (no put, get, atomic or signal can be reached): any verdict is about PEs that share nothing; check that the SHMEM calls were not compiled out or refused"}}
}

// PEWarnings warns, for N PEs, about each PE that takes no part in the
// communication, when others do: conditions on the PE number (my_pe,
// n_pes and constants) are evaluated, every other condition is taken
// both ways, so a PE is named only when no path of its code communicates,
// synchronises (a barrier, a wait) or reads or writes a cell that a remote
// access of the program targets.
func PEWarnings(p *pgas.Program, n int) []pgas.Diag {
	if !reachesComm(p, nil) {
		return nil // silentWarnings said it for the whole program
	}
	part := takesPart(p)
	var silent []string
	for r := 1; r <= n; r++ {
		if !reaches(p, &pgas.Env{Rank: int64(r), N: int64(n)}, part) {
			if p.Dialect == "c" {
				silent = append(silent, fmt.Sprintf("PE %d", r-1))
			} else {
				silent = append(silent, fmt.Sprintf("rank %d", r))
			}
		}
	}
	if len(silent) == 0 {
		return nil
	}
	verb := "reaches"
	if len(silent) > 1 {
		verb = "reach"
	}
	return []pgas.Diag{{Pos: pgas.Pos{File: p.File, Line: 1, Col: 1}, Msg: fmt.Sprintf("with N = %d, %s %s no SHMEM communication, barrier or wait, and no cell that another PE accesses: the verdict says nothing about what %s would send or receive", n, strings.Join(silent, ", "), verb, plural(len(silent), "it", "they"))}}
}

func plural(k int, one, many string) string {
	if k == 1 {
		return one
	}
	return many
}

// takesPart is what makes a PE part of the communication: a remote
// access, a barrier, a wait (a guarded load or atomic), or a load or store
// of a cell that some remote access targets (any cell, when a target is
// not a constant).
func takesPart(p *pgas.Program) func(*pgas.Cmd) bool {
	targets := map[int64]bool{}
	anyCell := false
	for i := range p.Trans {
		c := &p.Trans[i].Cmd
		if !communicates(c) || c.Remote == nil {
			continue
		}
		if v, ok := c.Remote.Const(); ok {
			targets[v] = true
		} else {
			anyCell = true
		}
	}
	return func(c *pgas.Cmd) bool {
		switch {
		case communicates(c), c.Op == pgas.OpBarrier, c.Guard != nil:
			return true
		case (c.Op == pgas.OpLoad || c.Op == pgas.OpStore) && c.Addr != nil:
			if anyCell {
				return true
			}
			v, ok := c.Addr.Const()
			return !ok || targets[v]
		}
		return false
	}
}

// reachesComm reports whether a remote access can be reached.
func reachesComm(p *pgas.Program, env *pgas.Env) bool {
	return reaches(p, env, communicates)
}

// reaches searches the control graph from the initial state for a command
// that satisfies want. With env nil every transition can be taken;
// otherwise an assume whose condition reads only the rank, N and
// constants is taken only where it holds.
func reaches(p *pgas.Program, env *pgas.Env, want func(*pgas.Cmd) bool) bool {
	seen := make([]bool, len(p.Labels))
	stack := []int{p.Init}
	if p.Init < 0 || p.Init >= len(seen) {
		return false
	}
	seen[p.Init] = true
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if q >= len(p.Out) {
			continue
		}
		for _, i := range p.Out[q] {
			tr := &p.Trans[i]
			if env != nil && tr.Cmd.Op == pgas.OpAssume && tr.Cmd.Val != nil && len(tr.Cmd.Val.Regs()) == 0 {
				if v, err := tr.Cmd.Val.Eval(*env); err == nil && v == 0 {
					continue
				}
			}
			if want(&tr.Cmd) {
				return true
			}
			if tr.To >= 0 && tr.To < len(seen) && !seen[tr.To] {
				seen[tr.To] = true
				stack = append(stack, tr.To)
			}
		}
	}
	return false
}

// The modelling choices, in the order of docs/shmem.md.
var (
	assumeIndexOrder = pgas.Assumption{ID: "index-order", Text: "a put or get of several elements reads and writes them one by one in index order (docs/shmem.md, assumptions)"}
	assumeNoStore    = pgas.Assumption{ID: "ctx-nostore", Text: "SHMEM_CTX_NOSTORE is read as in docs/shmem.md: it changes no ordering the checker models (docs/shmem.md, assumptions)"}
	assumePolls      = pgas.Assumption{ID: "failed-polls", Text: "a wait_until or test that has not yet succeeded reads nothing: failed polls are not events (docs/shmem.md, assumptions)"}
	assumeLocalSC    = pgas.Assumption{ID: "local-sc", Text: "a PE's own loads and stores are sequentially consistent and at once visible to remote accesses (docs/shmem.md, assumptions)"}
	// the C library model's (libc_mem.go)
	assumeLibcIndexOrder = pgas.Assumption{ID: "libc-index-order", Text: "memset, memcpy and memcmp of several elements of a symmetric object access them in index order (C leaves the order open)"}
	// the memory layout's (heap.go)
	assumeAllocSucceeds = pgas.Assumption{ID: "alloc-succeeds", Text: "every allocation succeeds (the heap is large enough): its result is never NULL"}
	assumeAllocZero     = pgas.Assumption{ID: "alloc-zero", Text: "a block from shmem_malloc, shmem_align or malloc reads as 0 until it is written (C leaves its contents indeterminate)"}
	assumeFreeNoPending = pgas.Assumption{ID: "free-no-pending", Text: "at shmem_free, no operation on the block is pending on a context other than the default one (the specification makes this the program's responsibility)"}
	assumeShmemPtrNull  = pgas.Assumption{ID: "shmem-ptr-null", Text: "shmem_ptr returns NULL for every PE but the caller (the specification allows it: the object is then not reachable by loads and stores)"}
)

// assumptions lists the choices the translated program exercises. The
// translator records them as it meets the constructs (t.assume).
func (t *translator) assumptions() []pgas.Assumption {
	var out []pgas.Assumption
	for _, a := range []pgas.Assumption{assumeIndexOrder, assumeLibcIndexOrder, assumeNoStore, assumePolls, assumeLocalSC, assumeAllocSucceeds, assumeAllocZero, assumeFreeNoPending, assumeShmemPtrNull} {
		if t.uses[a.ID] {
			out = append(out, a)
		}
	}
	return out
}

// assume records that the program exercises choice a.
func (t *translator) assume(a pgas.Assumption) {
	if t.uses == nil {
		t.uses = map[string]bool{}
	}
	t.uses[a.ID] = true
}

// programAssumptions completes what the translator recorded with what the
// compiled program shows: waits with a guard (failed polls), local loads
// and stores, and SHMEM_CTX_NOSTORE in the source.
func programAssumptions(p *pgas.Program, res *Result, src []byte) []pgas.Assumption {
	has := map[string]bool{}
	for _, a := range res.Assumptions {
		has[a.ID] = true
	}
	for i := range p.Trans {
		c := &p.Trans[i].Cmd
		switch {
		case c.Guard != nil:
			has[assumePolls.ID] = true
		case c.Op == pgas.OpLoad || c.Op == pgas.OpStore:
			has[assumeLocalSC.ID] = true
		}
	}
	inComment := false
	for l := range strings.Lines(string(src)) {
		if strings.Contains(stripComments(l, &inComment), "SHMEM_CTX_NOSTORE") {
			has[assumeNoStore.ID] = true
		}
	}
	var out []pgas.Assumption
	for _, a := range []pgas.Assumption{assumeIndexOrder, assumeLibcIndexOrder, assumeNoStore, assumePolls, assumeLocalSC, assumeAllocSucceeds, assumeAllocZero, assumeFreeNoPending, assumeShmemPtrNull} {
		if has[a.ID] {
			out = append(out, a)
		}
	}
	return append(out, bufOnly(res.Assumptions)...) // buffer_plan.go
}
