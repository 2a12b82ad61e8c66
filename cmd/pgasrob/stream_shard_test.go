package main

import (
	"fmt"
	"strings"
	"testing"
)

// Shards of a streamed decision (N = 10: 1,112,083 cycle types, more than
// cycles.MaxListedTypes) merge like listed ones: a program where every
// rank writes its own x has one representative per length and is robust
// (the merge must count the same types as the unsharded run, which takes
// the shared exploration over the 10 representatives). A rank that
// writes its own x into its own y and loads y is not robust already with
// cycle type (1) (load -cf-> popb <-> write -po-> load), and the other
// lengths of this fully symmetric program are as quick; each shard stops
// at its first violation, so the merged witness need not be the
// unsharded one, only certified.
func TestMergeStreamed(t *testing.T) {
	own := writeFile(t, "own.pgas", "values 2\naddress x\nqueue q\n  write(x, rank, x, q)\n")
	checkMerge(t, "decide", own, "-n", "10")
	self := writeFile(t, "self.pgas", "values 2\naddress x, y\nregister r\nqueue q\n  write(x, rank, y, q)\n  r <- mem[y]\n")
	for k := 1; k <= 3; k++ {
		files := runShards(t, k, "decide", self, "-n", "10", "--jobs", "2")
		code, out, errs := runCmd(append([]string{"merge", "--json"}, files...)...)
		var m decideJSON
		mustJSON(t, fmt.Sprintf("K = %d", k), out+errs, &m)
		r := m.Results[0]
		if code != exitNotRobust || r.Witness == nil || !r.Witness.Certified || r.CycleTypes.Listing != "searched" || r.CycleTypes.Total != 1112083 {
			t.Fatalf("self N = 10, K = %d: exit %d, %+v\n%s", k, code, r.CycleTypes, errs)
		}
	}
	// A shard missing: the robust program's merge is UNKNOWN and says why.
	files := runShards(t, 2, "decide", own, "-n", "10")
	code, out, _ := runCmd("merge", files[0])
	if code != exitUnknown || !strings.Contains(out, "not covered: shard 2/2 missing") {
		t.Fatalf("one shard of two: exit %d\n%s", code, out)
	}
}
