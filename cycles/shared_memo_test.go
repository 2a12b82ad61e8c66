package cycles

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/pgasrob/pgasrob/normalform"
)

// TestSharedMemoConcurrent: goroutines that put and get random keys at
// once, in tables small enough to grow and be flushed many times, never
// read a value that was not put for that key (each key has one value, as
// in the shared exploration), and find most of what they put while it
// fits. A reader that took a claimed slot's missing value for a value, or
// a growth that lost the keys' pairing, fails it; run it with -race.
func TestSharedMemoConcurrent(t *testing.T) {
	val := func(k uint64) uint32 { return uint32(mix(k)) >> 1 }
	run := func(k uint64) []markResult {
		n := int(k % 5)
		res := make([]markResult, n)
		for i := range res {
			res[i] = markResult{mu: normalform.Mu(1 + i%3), set: uint32(k) + uint32(i)}
		}
		return res
	}
	for _, maxEntries := range []int{40, 5000, 1 << 20} {
		m := newSharedMemo(maxEntries)
		var rs results
		rs.reset(maxEntries)
		var mu sync.Mutex
		var wg sync.WaitGroup
		var found [4]int
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(g), 7))
				var w resultWriter
				for range 50_000 {
					k := r.Uint64N(20_000)
					if v, ok := m.get(k); ok {
						if v != val(k) {
							t.Errorf("key %d: value %d, want %d", k, v, val(k))
							return
						}
						found[g]++
					} else {
						m.put(k, val(k))
					}
					if got, ok := rs.get(k); ok {
						if want := run(k); !slices.Equal(got, want) {
							t.Errorf("key %d: run %v, want %v", k, got, want)
							return
						}
					} else {
						rs.put(k, run(k), &w, &mu)
					}
				}
			}()
		}
		wg.Wait()
		hits := found[0] + found[1] + found[2] + found[3]
		if maxEntries >= 1<<20 && hits < 100_000 {
			t.Errorf("a memo that holds every key found only %d of 200,000 lookups", hits)
		}
		if maxEntries == 40 && m.flushes.Load() == 0 {
			t.Errorf("a memo of 40 entries was never flushed")
		}
	}
}
