package repair

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// ParseCosts reads a cost file: one rule per line, "KIND COST" for every
// insertion of a kind or "KIND LINE COST" for those at one source line
// (the statement an insertion goes before; the operation changed), with
// KIND one of wait, waitq, sync, fence, quiet, blocking, atomic; # starts a
// comment. Rules start from
// DefaultCosts. Costs are integers in 0..10^9.
func ParseCosts(file string, src []byte) (Costs, error) {
	cs := DefaultCosts()
	cs.Line = map[LineKey]int64{}
	for n, raw := range strings.Split(string(src), "\n") {
		text, _, _ := strings.Cut(raw, "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		at := func(k int) pgas.Pos {
			return pgas.Pos{File: file, Line: n + 1, Col: strings.Index(text, f[k]) + 1}
		}
		fail := func(k int, format string, a ...any) (Costs, error) {
			return Costs{}, fmt.Errorf("%s: %s", at(k), fmt.Sprintf(format, a...))
		}
		if len(f) != 2 && len(f) != 3 {
			return fail(0, "want KIND COST or KIND LINE COST, got %d fields", len(f))
		}
		kind := -1
		for k, name := range kindNames {
			if f[0] == name {
				kind = k
			}
		}
		if kind < 0 {
			return fail(0, "unknown kind %q (want one of %s)", clip(f[0]), strings.Join(kindNames[:], ", "))
		}
		v, err := strconv.ParseInt(f[len(f)-1], 10, 64)
		if err != nil || v < 0 || v > 1_000_000_000 {
			return fail(len(f)-1, "cost %q is not an integer in 0..1000000000", clip(f[len(f)-1]))
		}
		if len(f) == 2 {
			cs.Kind[kind] = v
			continue
		}
		line, err := strconv.Atoi(f[1])
		if err != nil || line < 1 {
			return fail(1, "line %q is not a line number", clip(f[1]))
		}
		cs.Line[LineKey{Kind(kind), line}] = v
	}
	return cs, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
