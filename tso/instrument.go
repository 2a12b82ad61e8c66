package tso

import (
	"context"
	"fmt"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// Attack is the syntactic object of Definition 1 of tso-robustness-attacks.md
// (and Section 8 of locality-singularity.md): the attacker thread, the
// store instruction whose instance is delayed first, and the instruction
// that is the attacker's last action before the helpers close the
// happens-before cycle. Store and Last index Thread's transitions.
type Attack struct {
	Thread, Store, Last int
}

// Attacker is the shape of attacker instrumentation used.
type Attacker int

const (
	// AttackerTSO is Fig. 5 of tso-robustness-attacks.md: any number of
	// delayed stores kept in auxiliary addresses (x,d); the last action is
	// a load.
	AttackerTSO Attacker = iota
	// AttackerLocality is Fig. 4 of locality-singularity.md: per-address
	// delayed stores, non-delayed stores and fences, delayed fences.
	AttackerLocality
	// AttackerSingularity is Fig. 5 of locality-singularity.md: exactly one
	// delayed store, kept in two registers.
	AttackerSingularity
)

func (a Attacker) String() string {
	return [...]string{"tso", "locality", "singularity"}[a]
}

// attackerFor picks the instrumentation: singularity holds for the
// store-atomic framework without address-list fences, locality with them,
// and TSO needs its own (Figure 1 of locality-singularity.md).
func attackerFor(p *prog.Program, m prog.Model) Attacker {
	switch {
	case m == prog.TSO:
		return AttackerTSO
	case p.HasFence:
		return AttackerLocality
	}
	return AttackerSingularity
}

// role says what an instrumented transition does with its original
// instruction.
type role uint8

const (
	rExec          role = iota // run the instruction under SC
	rHelperPre                 // H0: only while the hb flag is down
	rHelperEnter               // H1: first action that depends on the attacker's last one
	rHelperCopy                // H2: later actions, maintaining the access levels
	rAttStart                  // A1: the attacking store is delayed
	rAttLast                   // A2: the attacker's last action; raises the hb flag
	rAttCopy                   // A3: load (buffer first), delayed store, local action
	rAttDirect                 // A3: a store or fence that is not delayed
	rAttFenceDelay             // A3: a delayed address-list fence
	rHelperLock                // a helper starts a locked section after the hb flag is up
	rHelperTent                // inside that section, an action not (yet) dependent on the attacker
)

var roleNames = [...]string{"exec", "helper", "helper-enter", "helper-hb", "attack-store", "attack-last", "attacker", "attacker-direct", "attacker-fence-delay", "helper-lock", "helper-locked"}

func (r role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	if n := extRoleNames[r]; n != "" {
		return n
	}
	return fmt.Sprintf("role%d", r)
}

// extRoleNames names the roles of criteria's extensions (rExt and above);
// a criterion's files fill it from an init function.
var extRoleNames = map[role]string{}

// itrans is a transition of an instrumented thread. Labels 0..L-1 are the
// original code, L..2L-1 its copy; 2L is the attacker's wait label, and
// 2L..3L-1 a second copy for helpers (locked sections, see instrument).
type itrans struct {
	from, to int32
	role     role
	orig     int32
}

type ithread struct {
	labels int
	trans  []itrans
	out    [][]int32
}

func (it *ithread) add(from, to int, r role, orig int) {
	it.trans = append(it.trans, itrans{from: int32(from), to: int32(to), role: r, orig: int32(orig)})
}

// addHelper adds the helper rules of transition k of a helper thread whose
// helper copy starts at label H and whose tentative copy (locks, see
// instrument) at T: a load or store of the original code or of the
// tentative copy enters the helper copy, the helper copy runs the thread's
// code, a lock taken enters the tentative copy, which runs everything but
// an unlock. P_A (instrument) and P_* (instrumentCombined) share them.
func (it *ithread) addHelper(t prog.Trans, k, H, T int) {
	if t.Op == prog.OpRead || t.Op == prog.OpWrite {
		it.add(t.From, H+t.To, rHelperEnter, k)
		it.add(T+t.From, H+t.To, rHelperEnter, k)
	}
	it.add(H+t.From, H+t.To, rHelperCopy, k)
	switch t.Op {
	case prog.OpLock:
		it.add(t.From, T+t.To, rHelperLock, k)
	case prog.OpUnlock:
	default:
		it.add(T+t.From, T+t.To, rHelperTent, k)
	}
}

func (it *ithread) index() {
	it.out = make([][]int32, it.labels)
	for i, t := range it.trans {
		it.out[t.from] = append(it.out[t.from], int32(i))
	}
}

// plainThreads is the program itself under SC.
func plainThreads(p *prog.Program) []ithread {
	out := make([]ithread, len(p.Threads))
	for i, th := range p.Threads {
		it := ithread{labels: len(th.Labels)}
		for k, t := range th.Trans {
			it.add(t.From, t.To, rExec, k)
		}
		it.index()
		out[i] = it
	}
	return out
}

// instrument builds the program P_A of an attack: the attacker of the given
// shape and every other thread as a helper (Fig. 7 of
// tso-robustness-attacks.md, Fig. 6 of locality-singularity.md). Goal
// detection (Eq. (13) of the first paper, "wait" of the second) is the
// accepting predicate of the SC system rather than extra instructions, so it
// adds no states.
func instrument(p *prog.Program, a Attack, shape Attacker) []ithread {
	out := make([]ithread, len(p.Threads))
	for ti, th := range p.Threads {
		L := len(th.Labels)
		it := ithread{labels: 2*L + 1}
		if ti != a.Thread {
			// A locked section is one atomic action: it cannot be split
			// around the attacker's last action, so after the hb flag is
			// up it may run as a whole as soon as one of its accesses
			// depends on that action. Until then the helper runs in the
			// second copy (T..) without raising access levels, and it
			// may not unlock there. The papers leave locks out ("straight
			// forward to add"); the random differential tests against
			// the oracle found that the plain H0/H1 rules miss such
			// violations.
			it.labels = 3 * L
			T := 2 * L
			for k, t := range th.Trans {
				it.add(t.From, t.To, rHelperPre, k)
				it.addHelper(t, k, L, T)
			}
			it.index()
			out[ti] = it
			continue
		}
		for k, t := range th.Trans {
			it.add(t.From, t.To, rExec, k)
		}
		st, last := th.Trans[a.Store], th.Trans[a.Last]
		it.add(st.From, L+st.To, rAttStart, a.Store)
		it.add(L+last.From, 2*L, rAttLast, a.Last)
		for k, t := range th.Trans {
			from, to := L+t.From, L+t.To
			switch t.Op {
			case prog.OpRead, prog.OpLocal, prog.OpCheck, prog.OpNoop:
				it.add(from, to, rAttCopy, k)
			case prog.OpWrite:
				if shape != AttackerSingularity {
					it.add(from, to, rAttCopy, k)
				}
				if shape != AttackerTSO {
					it.add(from, to, rAttDirect, k)
				}
			case prog.OpFence:
				switch shape {
				case AttackerTSO:
					// Under TSO the one FIFO buffer already orders every
					// store, so an address-list fence constrains nothing.
					it.add(from, to, rAttCopy, k)
				case AttackerLocality:
					it.add(from, to, rAttFenceDelay, k)
					it.add(from, to, rAttDirect, k)
				}
			}
			// mfence, sfence, lock and unlock need an empty buffer: they
			// cannot be executed while the attacking store is delayed.
		}
		it.index()
		out[ti] = it
	}
	return out
}

// fenceFree accepts the transitions a delayed store can cross.
func fenceFree(o prog.Op) bool { return !o.IsFull() }

// enumerateAttacks enumerates the attacks of a program for a model, and reports for
// each whether the cheap syntactic check refutes it: no path from the
// store's target to the last instruction avoids mfence, sfence, lock and
// unlock (the NR1 column of the TSO paper's Table 2). Under TSO the last
// instruction is a load; under PSO a load or a store.
func enumerateAttacks(p *prog.Program, m prog.Model) (attacks []Attack, refuted []bool) {
	attacks, refuted, _ = listPatterns(context.Background(), p, attackSpec(p, m))
	return attacks, refuted
}

// attackSpec is the pattern list of robustness (patterns.go).
func attackSpec(_ *prog.Program, m prog.Model) patternSpec {
	return patternSpec{cross: fenceFree, last: func(o prog.Op) bool { return o == prog.OpRead || m != prog.TSO && o == prog.OpWrite }}
}
