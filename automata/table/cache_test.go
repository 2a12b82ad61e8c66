package table

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestCacheConcurrent: goroutines that put and get random keys at once,
// in caches small enough to grow and be flushed many times, never read a
// value that was not put for that key (each key has one value, as for
// the users), and find most of what they put while it fits. A reader
// that took a claimed slot's missing value for a value, or a growth that
// lost the pairing of keys and values, fails it; run it with -race.
func TestCacheConcurrent(t *testing.T) {
	val := func(k uint64) uint32 { return uint32(Word(k)) >> 1 }
	for _, maxEntries := range []int{40, 5000, 1 << 20} {
		m := NewCache(maxEntries)
		var wg sync.WaitGroup
		var found [4]int
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(g), 9))
				for range 50_000 {
					k := r.Uint64N(20_000)
					if v, ok := m.Get(k); ok {
						if v != val(k) {
							t.Errorf("key %d: value %d, want %d", k, v, val(k))
							return
						}
						found[g]++
					} else {
						m.Put(k, val(k))
					}
				}
			}()
		}
		wg.Wait()
		hits := found[0] + found[1] + found[2] + found[3]
		if maxEntries >= 1<<20 && hits < 100_000 {
			t.Errorf("a cache that holds every key found only %d of 200,000 lookups", hits)
		}
		if maxEntries == 40 && m.Flushes() == 0 {
			t.Errorf("a cache of 40 entries was never flushed")
		}
		if maxEntries == 1<<20 && (m.Flushes() != 0 || m.Bytes() < 20_000*slotBytes) {
			t.Errorf("a cache for every key: %d flushes, %d bytes", m.Flushes(), m.Bytes())
		}
	}
}

// TestCacheGrowthKeepsEntries: one goroutine's entries survive the
// growths of a cache below its cap (the copy into the larger table), and
// a cache at its cap is flushed instead of growing.
func TestCacheGrowthKeepsEntries(t *testing.T) {
	m := NewCache(10_000)
	for k := range uint64(10_000) {
		m.Put(k<<32, uint32(k))
	}
	for k := range uint64(10_000) {
		if v, ok := m.Get(k << 32); !ok || v != uint32(k) {
			t.Fatalf("key %d: %d, %v after the growths", k<<32, v, ok)
		}
	}
	if m.Flushes() != 0 || m.Bytes() != 16384*slotBytes {
		t.Fatalf("%d flushes, %d bytes; want none and 16,384 slots", m.Flushes(), m.Bytes())
	}
	for k := range uint64(10_000) {
		m.Put(k<<32|1, 1)
	}
	if m.Flushes() == 0 || m.Bytes() != 16384*slotBytes {
		t.Fatalf("past its cap: %d flushes, %d bytes; want a flush and the same size", m.Flushes(), m.Bytes())
	}
}
