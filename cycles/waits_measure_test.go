package cycles

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/pgasrob/pgasrob/automata"
	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

// projecting records the distinct projections of the product states it
// expands: Y alone, with μ, with the pairs, and whole.
type projecting struct {
	*product
	sets [4]map[string]struct{}
}

func (c *projecting) Successors(s automata.State, emit func(automata.Label, automata.State)) {
	var t tracker = c.newTracker()
	c.tl.load(s, &t)
	var k []byte
	for _, w := range s[:c.y.Words()] {
		k = binary.LittleEndian.AppendUint64(k, w)
	}
	c.sets[0][string(k)] = struct{}{}
	for _, f := range c.mu {
		k = append(k, byte(f.Get(s)))
	}
	c.sets[1][string(k)] = struct{}{}
	for _, p := range t.pairs {
		k = append(k, byte(p.st), byte(p.h), byte(p.hi), byte(p.cell))
	}
	c.sets[2][string(k)] = struct{}{}
	for _, w := range s {
		k = binary.LittleEndian.AppendUint64(k, w)
	}
	c.sets[3][string(k)] = struct{}{}
	c.product.Successors(s, emit)
}

// TestMeasureProduct (PGASROB_MEASURE=file) splits the per-type product
// states of every cycle type into Y, μ, pairs and written sets.
func TestMeasureProduct(t *testing.T) {
	f := os.Getenv("PGASROB_MEASURE")
	if f == "" {
		t.Skip("set PGASROB_MEASURE=FILE")
	}
	p, err := pgas.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	for n := 2; n <= 4; n++ {
		y, err := normalform.New(p, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, cyc := range CycleTypes(n) {
			prod := newProduct(y, cyc, func(s automata.State) []normalform.Move { m, _ := y.Moves(s); return m })
			prod.reduce = newReducer(p, prod.future.Words)
			c := &projecting{product: prod}
			for i := range c.sets {
				c.sets[i] = map[string]struct{}{}
			}
			r := automata.Search(c, automata.Options{})
			t.Logf("N=%d %-10v states %7d  Y %6d  Y+mu %6d  +pairs %6d  +written %6d", n, cyc, r.Stats.States, len(c.sets[0]), len(c.sets[1]), len(c.sets[2]), len(c.sets[3]))
		}
	}
}
