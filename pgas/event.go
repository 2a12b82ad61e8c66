package pgas

import "fmt"

// Kind is the kind of an event (the set K of Section 2.3).
type Kind uint8

const (
	KLoad Kind = iota
	KStore
	KAssign
	KAssume
	KRead
	KWrite
	KPopa
	KPopb
	KBar
	// The events of the OpenSHMEM commands (docs/shmem-calculus.md). A
	// send issues a KWrite event and a recv a KRead event, with the same
	// popa/popb as write and read; these are the others.
	KFence  // fence: no cell
	KQuiet  // quiet: no cell
	KAmo    // a fetching atomic that writes (k, m): reads and writes it
	KAFetch // a fetching atomic that only reads (k, m) (a fetch, a failed cswap)
)

var kindNames = [...]string{"load", "store", "assign", "assume", "read", "write", "popa", "popb", "bar",
	"fence", "quiet", "amo", "afetch"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// IsPop reports whether k is popa or popb.
func (k Kind) IsPop() bool { return k == KPopa || k == KPopb }

// IsWrite reports whether events of kind k write their cell (store, popb).
// An atomic (KAmo) both reads and writes; for conflicts that is the same
// as a write, since every conflict with a write is an edge.
func (k Kind) IsWrite() bool { return k == KStore || k == KPopb || k == KAmo }

// IsRead reports whether events of kind k read their cell (load, popa,
// the atomics).
func (k Kind) IsRead() bool { return k == KLoad || k == KPopa || k == KAmo || k == KAFetch }

// Cell is a memory cell (rank, address) of the partitioned global address
// space.
type Cell struct {
	Rank int // 1..N
	Addr int // 0..|ADR|-1
}

// Event is a letter of the alphabet E = K x RNK x ((RNK x ADR) ∪ {⊥}),
// enriched with what a witness needs to be read by a person and replayed:
// the transition that produced it and, for remote accesses and pops, the
// queue. For pops, Trans is the transition of the read or write command
// they belong to.
type Event struct {
	Kind    Kind
	Rank    int  // rank of the process that produced the event, 1..N
	HasCell bool // false means addr(e) = ⊥
	Cell    Cell // addr(e) when HasCell
	Trans   int  // index into Program.Trans
	Queue   int  // queue id for read, write, popa, popb; -1 otherwise
	// Item links a pop of an OpenSHMEM context (Program.Ctx[Queue]) to
	// the command it belongs to: the number of non-pop events of Rank
	// before that command's issue event (its index in Rank's program
	// order, from 0). Items of a context are unordered, so a pop cannot be
	// matched to its command by counting as for a FIFO queue. On a bar
	// event, Item names the set of the barrier (BarItem: 0 for every
	// rank). 0 and unused for every other event.
	Item int
}

func (e Event) String() string {
	if e.HasCell {
		return fmt.Sprintf("%s@%d(%d,%d)", e.Kind, e.Rank, e.Cell.Rank, e.Cell.Addr)
	}
	return fmt.Sprintf("%s@%d", e.Kind, e.Rank)
}

// Describe prints an event with names from the program.
func (p *Program) Describe(e Event) string {
	s := fmt.Sprintf("%-6s rank %d", e.Kind, e.Rank)
	if e.HasCell {
		name := fmt.Sprint(e.Cell.Addr)
		if e.Cell.Addr >= 0 && e.Cell.Addr < len(p.Addrs) {
			name = p.Addrs[e.Cell.Addr]
		}
		s += fmt.Sprintf(" cell (%d,%s)", e.Cell.Rank, name)
	}
	if e.Trans >= 0 && e.Trans < len(p.Trans) {
		t := p.Trans[e.Trans]
		s += fmt.Sprintf("  line %d: %s", t.Pos.Line, t.Text)
	}
	return s
}
