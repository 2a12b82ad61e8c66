// OpenSHMEM collectives on data: broadcast, collect, fcollect, alltoall,
// alltoalls, reductions and scans (docs/shmem.md, "Collectives").

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// collective is a routine name taken apart: shmem_[TYPE_]op[mem|32|64]
// (team-based when team, active-set-based otherwise).
type collective struct {
	op     string // broadcast, collect, fcollect, alltoall, alltoalls, reduce, scan
	reduce string // for reduce: and, or, xor, max, min, sum, prod
	typ    string
	size   int64 // element size from the name; 0: the destination's
	team   bool
}

func collectiveOp(name string) (collective, bool) {
	rest, ok := strings.CutPrefix(name, "shmem_")
	if !ok {
		return collective{}, false
	}
	var c collective
	for typ := range typeSizes {
		if strings.HasPrefix(rest, typ+"_") && len(typ) > len(c.typ) {
			c.typ = typ
		}
	}
	if c.typ != "" {
		rest, c.size = rest[len(c.typ)+1:], typeSizes[c.typ]
	}
	for _, op := range []string{"broadcast", "fcollect", "collect", "alltoalls", "alltoall"} {
		if tail, ok := strings.CutPrefix(rest, op); ok {
			c.op = op
			switch tail {
			case "":
				c.team = true
			case "mem":
				c.team, c.size = true, 1
			case "32", "64":
				c.size = map[string]int64{"32": 4, "64": 8}[tail]
			default:
				return collective{}, false
			}
			return c, c.typ == "" || c.team
		}
	}
	for _, op := range reduceOps {
		if tail, ok := strings.CutPrefix(rest, op+"_"); ok && (tail == "reduce" || tail == "to_all") {
			c.op, c.reduce, c.team = "reduce", op, tail == "reduce"
			return c, true
		}
	}
	if rest == "sum_inscan" || rest == "sum_exscan" {
		c.op, c.team = "scan", true
		return c, true
	}
	return collective{}, false
}

func (t *translator) collective(x *cc.PostfixExpression, name string, c collective, args []cc.ExpressionNode) string {
	t.refuse(x, "%s: collectives on data are not in the subset yet (see docs/shmem.md, \"Collectives\")", name)
	return ""
}
