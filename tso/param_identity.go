package tso

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// The format gives a thread no way to learn its identity: no instruction
// names the running thread, registers are private and start at 0 in every
// copy, and the lock only records that some copy holds it. Code alone can
// therefore always be replicated. What can be lost is an identity encoded
// in data, the way Trencher's CLH and MCS locks give each thread its own
// node addresses: two threads whose code is the same up to integer
// constants. Marking one of them replicated makes all copies share its
// constants, which is a different algorithm. IdentityWarnings points such
// pairs out, at the first constant that differs.

// numberRE is compiled on first use: at package init it cost every run of
// the command about 0.2 ms, a tenth of a tiny file's whole check.
var numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-?\b[0-9]+\b`) })

// IdentityWarnings lists, for every replicated thread, the other threads
// whose code equals it up to integer constants, with the position of the
// first constant that differs.
func IdentityWarnings(p *prog.Program) []string {
	var out []string
	for ti, t := range p.Threads {
		if !t.Replicated {
			continue
		}
		for ui, u := range p.Threads {
			if ui == ti {
				continue
			}
			if pos, ok := differsInConstants(t, u); ok {
				out = append(out, fmt.Sprintf("%v: thread %s is thread %s up to constants (%q here, %q in %s): if these encode an identity (per-thread addresses), the copies of %s all share %s's",
					pos.pos, u.Name, t.Name, pos.here, pos.there, t.Name, t.Name, t.Name))
			}
		}
	}
	return out
}

type constDiff struct {
	pos         prog.Pos
	here, there string
}

// differsInConstants reports whether u is t with some integer constants
// changed (same states, same instructions otherwise), and where.
func differsInConstants(t, u *prog.Thread) (constDiff, bool) {
	if len(t.Trans) != len(u.Trans) || len(t.Labels) != len(u.Labels) || t.Labels[t.Init] != u.Labels[u.Init] {
		return constDiff{}, false
	}
	var first constDiff
	found := false
	for k := range t.Trans {
		a, b := &t.Trans[k], &u.Trans[k]
		if t.Labels[a.From] != u.Labels[b.From] || t.Labels[a.To] != u.Labels[b.To] || a.Op != b.Op {
			return constDiff{}, false
		}
		if numberRE().ReplaceAllString(a.Text, "#") != numberRE().ReplaceAllString(b.Text, "#") {
			return constDiff{}, false
		}
		if a.Text != b.Text && !found {
			first, found = constDiff{pos: b.Pos, here: b.Text, there: a.Text}, true
		}
	}
	return first, found
}
