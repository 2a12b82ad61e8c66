package race

import (
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// What the definition needs to know about one event of a computation:
// whether it accesses a cell, how, and through which interface. The
// oracle (race/oracle) answers the same questions with its own code.

// access describes the memory access of an event.
type access struct {
	ok      bool // the event reads or writes a cell the user can see
	cell    pgas.Cell
	write   bool // writes the cell (store, popb, writing atomic)
	rma     bool // through the RMA interface: a pop or a fetching atomic
	atomic  bool // an atomic access: an atomic, an atomic's or a signal's delivery, an await
	observe bool // an atomic read whose value the program sees (await, fetching atomic)
	rmw     bool // an atomic write that reads the cell first (adds, swap, cswap)
}

// hidden reports whether address a is the translation's own bookkeeping
// (a name starting with '$', such as the shadow $sync of waits): accesses
// to it are never races, and an await on it synchronises with the write
// it reads (the completion of the operation it waits for).
func hidden(p *pgas.Program, a int) bool {
	return a >= 0 && a < len(p.Addrs) && strings.HasPrefix(p.Addrs[a], "$")
}

// atomicSend reports whether transition t is a send whose delivery is an
// atomic update: a non-fetching atomic (amo_add, amo_inc, amo_set, and the
// bitwise amo_and, amo_or, amo_xor) or the signal of a put-with-signal
// (the send After its data).
func atomicSend(p *pgas.Program, t int) bool {
	if t < 0 || t >= len(p.Trans) {
		return false
	}
	tr := &p.Trans[t]
	if tr.Cmd.Op != pgas.OpSend {
		return false
	}
	switch tr.Sugar {
	case "amo_add", "amo_inc", "amo_set", "amo_and", "amo_or", "amo_xor":
		return true
	}
	return tr.Cmd.After
}

// classify returns the access of e.
func classify(p *pgas.Program, e pgas.Event) access {
	if !e.HasCell || hidden(p, e.Cell.Addr) {
		return access{}
	}
	a := access{ok: true, cell: e.Cell}
	switch e.Kind {
	case pgas.KLoad:
		if e.Trans >= 0 && e.Trans < len(p.Trans) && p.Trans[e.Trans].Cmd.Guard != nil {
			a.atomic, a.observe = true, true
		}
	case pgas.KStore:
		a.write = true
	case pgas.KPopa:
		a.rma = true
	case pgas.KPopb:
		a.write, a.rma = true, true
		if atomicSend(p, e.Trans) {
			a.atomic = true
			amo := p.Trans[e.Trans].Cmd.Amo
			a.rmw = amo == pgas.AmoAdd || amo.Bitwise()
		}
	case pgas.KAmo:
		a.write, a.rma, a.atomic, a.observe, a.rmw = true, true, true, true, true
	case pgas.KAFetch:
		a.rma, a.atomic, a.observe = true, true, true
	default:
		return access{}
	}
	return a
}

// conflict reports whether a and b race when api_hb does not order them:
// one cell, a write among them, an RMA access among them, not both atomic.
func conflict(a, b access) bool {
	return a.ok && b.ok && a.cell == b.cell && (a.write || b.write) && (a.rma || b.rma) && !(a.atomic && b.atomic)
}
