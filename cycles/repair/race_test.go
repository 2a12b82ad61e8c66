package repair

import (
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/race"
)

// TestRepairRace: repair for the race criterion on small programs whose
// cheapest repair is argued by hand next to each case (docs/criteria.md
// gives the race definition; DefaultCosts the prices: fence 1, quiet 2,
// blocking 3, atomic 3).
func TestRepairRace(t *testing.T) {
	cases := []struct {
		name, src string
		verdict   Verdict
		cost      int64
		kinds     string // the kinds of the insertions, in order
	}{
		// Rank 1 overwrites the source of a non-blocking put: the put's
		// read of buf (its popa) and the store race. A fence before the
		// store (1) orders deliveries, not the read of the source; a quiet
		// (2) completes the put, whose read then comes before the store in
		// api_hb; making the put blocking (3) costs more. Nobody reads data.
		{"nbi-reuse", `program nbiReuse
values 3
address buf, data
context c

    if rank != 1 goto END
    mem[buf] <- 1
    putmem_nbi(buf, 2, data, c)
    mem[buf] <- 2
END:
`, Repaired, 2, "quiet"},
		// Rank 2 reads data while rank 1's put may be writing it. Nothing
		// rank 1 can insert (fence, quiet, blocking) orders rank 2's load
		// after the delivery, and rank 2 has no operation to change:
		// that needs a barrier or a flag, outside the vocabulary.
		{"unsynchronised-reader", `program reader
values 3
address buf, data
register r
context c

    if rank != 1 goto READER
    putmem(buf, 2, data, c); goto END
READER:
    r <- mem[data]
END:
`, NoRepair, 0, ""},
		// A blocking put reads its source when it is issued: the later
		// store is ordered after that read by program order, and nobody
		// reads data. Nothing to do.
		{"blocking-reuse", `program blockingReuse
values 3
address buf, data
context c

    if rank != 1 goto END
    mem[buf] <- 1
    putmem(buf, 2, data, c)
    mem[buf] <- 2
END:
`, AlreadyRobust, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := RepairRace(c.name+".pgas", []byte(c.src), []int{2}, Options{Costs: DefaultCosts()})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %v (%s), want %v", res.Verdict, res.Reason, c.verdict)
			}
			if res.Criterion != CriterionRace || len(res.Before) != 0 || len(res.RaceBefore) == 0 {
				t.Errorf("criterion %q, %d robustness and %d race decisions of the input", res.Criterion, len(res.Before), len(res.RaceBefore))
			}
			if c.verdict != Repaired {
				return
			}
			var kinds []string
			for _, in := range res.Insertions {
				kinds = append(kinds, in.Kind.String())
			}
			if res.Cost != c.cost || strings.Join(kinds, " ") != c.kinds || !res.Minimality.Proven {
				t.Errorf("cost %d, insertions %v, minimality %+v; want cost %d, %s, proven", res.Cost, res.Insertions, res.Minimality, c.cost, c.kinds)
			}
			if len(res.RaceAfter) != 1 || res.RaceAfter[0].Res.Verdict != race.RaceFree || len(res.Oracle) != 1 || !res.Oracle[0].Complete {
				t.Errorf("the repaired program's checks: %+v, oracle %+v", res.RaceAfter, res.Oracle)
			}
		})
	}
}

// TestSubsetsByCost: the enumeration behind RepairRace gives every subset
// once, by nondecreasing cost.
func TestSubsetsByCost(t *testing.T) {
	costs := []int64{1, 1, 2, 3, 3}
	en := newSubsets(len(costs), func(k int) int64 { return costs[k] })
	seen := map[string]bool{}
	last := int64(-1)
	for {
		s, cost, more := en.next()
		if !more {
			break
		}
		var sum int64
		key := ""
		for _, k := range s {
			sum += costs[k]
			key += string(rune('a' + k))
		}
		if sum != cost || cost < last || seen[key] {
			t.Fatalf("subset %v: cost %d (sum %d) after %d, seen %v", s, cost, sum, last, seen[key])
		}
		seen[key], last = true, cost
	}
	if len(seen) != 1<<len(costs) {
		t.Errorf("%d subsets, want %d", len(seen), 1<<len(costs))
	}
}
