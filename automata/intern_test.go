package automata

import (
	"sync"
	"testing"
)

// TestInternerConcurrent: goroutines interning overlapping sets of vectors
// get one number per vector, distinct vectors get distinct numbers, and
// the numbers load back to their vectors.
func TestInternerConcurrent(t *testing.T) {
	in := NewInterner(2)
	const workers, each = 4, 20000
	got := make([][]uint32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := make(State, 2)
			for i := range each {
				v := uint64(i + w*each/2) // half of each range is another's
				x[0], x[1] = v, v*v
				n, _ := in.Intern(x)
				got[w] = append(got[w], n)
			}
		}()
	}
	wg.Wait()
	num := map[uint64]uint32{}
	seen := map[uint32]uint64{}
	x := make(State, 2)
	for w := range workers {
		for i, n := range got[w] {
			v := uint64(i + w*each/2)
			if m, ok := num[v]; ok && m != n {
				t.Fatalf("vector %d numbered %d and %d", v, m, n)
			}
			if u, ok := seen[n]; ok && u != v {
				t.Fatalf("number %d given to %d and %d", n, u, v)
			}
			num[v], seen[n] = n, v
			in.Load(x, n)
			if x[0] != v || x[1] != v*v {
				t.Fatalf("number %d loads %v, want [%d %d]", n, x, v, v*v)
			}
		}
	}
	if in.Len() != len(num) {
		t.Errorf("Len %d, want %d", in.Len(), len(num))
	}
	if n, ok := in.Find(State{7, 49}); !ok || n != num[7] {
		t.Errorf("Find(7) = %d, %v; want %d", n, ok, num[7])
	}
	if _, ok := in.Find(State{7, 48}); ok {
		t.Error("Find reports an absent vector")
	}
	if _, fresh := in.Intern(State{7, 49}); fresh {
		t.Error("a second Intern reports the vector new")
	}
}

// sharedGraph is the random graph with its first word interned in a
// table shared with other searches.
type sharedGraph struct {
	*graph
	in *Interner
}

func (c sharedGraph) CollapseAt() int          { return 1 }
func (c sharedGraph) CollapseTable() *Interner { return c.in }
func (c sharedGraph) Fork() System             { return sharedGraph{c.graph.Fork().(*graph), c.in} }

// TestSharedCollapseSameSearch: searches that share the table of their
// first part, run at the same time, find what the plain searches find,
// state for state and witness for witness; a search that walks states
// another one has added is charged less memory for them.
func TestSharedCollapseSameSearch(t *testing.T) {
	in := NewInterner(1)
	opts := []Options{
		{},
		{Budget: Budget{MaxStates: 500}},
		{Strategy: DepthFirst},
		{Workers: 3},
	}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for seed := range int64(8) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, opt := range opts {
				g := randomGraph(seed, 3000+int(seed)*50)
				plain := Search(g, opt)
				shared := Search(sharedGraph{randomGraph(seed, 3000+int(seed)*50), in}, opt)
				if d := sameResult(plain, shared); d != "" {
					errs <- d
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for d := range errs {
		t.Fatal(d)
	}
	in = NewInterner(1)
	first := Search(sharedGraph{randomGraph(99, 5000), in}, Options{})
	again := Search(sharedGraph{randomGraph(99, 5000), in}, Options{})
	own := Search(collapsedGraph{randomGraph(99, 5000)}, Options{})
	if d := sameResult(first, again); d != "" {
		t.Fatal(d)
	}
	if again.Stats.Bytes >= first.Stats.Bytes || first.Stats.Bytes > own.Stats.Bytes+int64(first.Stats.States)*4 {
		t.Errorf("bytes: first search %d, again %d, own table %d", first.Stats.Bytes, again.Stats.Bytes, own.Stats.Bytes)
	}
}

// TestSharedTableFull: once a shard of a shared table reaches its limit,
// every search adding to it ends UNKNOWN on its memory limit, with the
// states so far, and never panics.
func TestSharedTableFull(t *testing.T) {
	in := NewInterner(1)
	in.limit = 50
	r := Search(sharedGraph{randomGraph(3, 4000), in}, Options{})
	if r.Outcome != Unknown || r.Limit != MemoryLimit || !in.Full() {
		t.Fatalf("outcome %v, limit %v, full %v after %d states", r.Outcome, r.Limit, in.Full(), r.Stats.States)
	}
	if r.Stats.States == 0 || r.Stats.States >= 4000 {
		t.Errorf("%d states before the stop", r.Stats.States)
	}
	fresh := NewInterner(1)
	if full := Search(sharedGraph{randomGraph(3, 4000), fresh}, Options{}); full.Outcome == Unknown {
		t.Fatalf("the same search with room: %v (%s)", full.Outcome, full.Reason)
	}
}
