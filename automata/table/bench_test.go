package table

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// The benchmarks compare the tables with those they replaced (commit
// c6fec22): the three hash functions of that tree and reduced copies of
// its cycles.memoTable and cycles.interner, which differed from Map and
// Seqs in their hash only (automata's visited set kept its hash, and
// cycles' lock-free memo its code).
//
// Besides sec/op each reports cpu-ns/op, the CPU time of the process per
// operation: on a machine shared with other work, wall time measures the
// load more than the table.
//
//	go test ./automata/table -run '^$' -bench . -count 6 | benchstat -col /impl -

// oldMix is the hash of cycles' memo tables (MurmurHash3's finaliser).
func oldMix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// oldSeqHash is cycles.interner's hash of a sequence.
func oldSeqHash(k []uint64) uint64 {
	h := uint64(len(k))
	for _, w := range k {
		h = oldMix(h ^ w)
	}
	return h
}

// oldWordsHash is the hash of cycles' per-type memo of rests.
func oldWordsHash(s []uint64) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, w := range s {
		h ^= w
		h *= 0x100000001b3
		h ^= h >> 32
	}
	return h
}

var sink uint64

func BenchmarkHash(b *testing.B) {
	x := []uint64{0x1234, 0x5678_0000_0000, 3}
	b.Run("word/impl=old", func(b *testing.B) {
		c0 := cpuTime()
		for i := range b.N {
			sink += oldMix(uint64(i))
		}
		reportCPU(b, c0)
	})
	b.Run("word/impl=new", func(b *testing.B) {
		c0 := cpuTime()
		for i := range b.N {
			sink += Word(uint64(i))
		}
		reportCPU(b, c0)
	})
	b.Run("seq3/impl=old", func(b *testing.B) {
		c0 := cpuTime()
		for i := range b.N {
			x[0] = uint64(i)
			sink += oldSeqHash(x)
		}
		reportCPU(b, c0)
	})
	b.Run("seq3/impl=new", func(b *testing.B) {
		c0 := cpuTime()
		for i := range b.N {
			x[0] = uint64(i)
			sink += Hash(x)
		}
		reportCPU(b, c0)
	})
	b.Run("vec3/impl=old", func(b *testing.B) {
		c0 := cpuTime()
		for i := range b.N {
			x[0] = uint64(i)
			sink += oldWordsHash(x)
		}
		reportCPU(b, c0)
	})
	b.Run("vec3/impl=new", func(b *testing.B) {
		c0 := cpuTime()
		for i := range b.N {
			x[0] = uint64(i)
			sink += Hash(x)
		}
		reportCPU(b, c0)
	})
}

// oldMap is cycles.memoTable: Map with oldMix.
type oldMap struct {
	keys []uint64
	vals []uint32
	n    int
	mask uint64
}

func newOldMap() *oldMap {
	return &oldMap{keys: make([]uint64, 1<<10), vals: make([]uint32, 1<<10), mask: 1<<10 - 1}
}

func (t *oldMap) get(k uint64) (uint32, bool) {
	k++
	for h := oldMix(k) & t.mask; ; h = (h + 1) & t.mask {
		switch t.keys[h] {
		case k:
			return t.vals[h], true
		case 0:
			return 0, false
		}
	}
}

func (t *oldMap) put(k uint64, v uint32) {
	if (t.n+1)*4 > len(t.keys)*3 {
		keys, vals := t.keys, t.vals
		*t = oldMap{keys: make([]uint64, 2*len(keys)), vals: make([]uint32, 2*len(vals)), mask: uint64(2*len(keys) - 1)}
		for i, k := range keys {
			if k != 0 {
				t.put(k-1, vals[i])
			}
		}
	}
	k++
	for h := oldMix(k) & t.mask; ; h = (h + 1) & t.mask {
		switch t.keys[h] {
		case k, 0:
			if t.keys[h] == 0 {
				t.n++
			}
			t.keys[h], t.vals[h] = k, v
			return
		}
	}
}

// mapKeys is the keys of the map benchmarks: numbers of sets and of
// events packed in one word, as the shared exploration's memos have
// them, two in three met before.
func mapKeys(n int) []uint64 {
	r := rand.New(rand.NewPCG(11, 12))
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = r.Uint64N(uint64(n/3))<<32 | r.Uint64N(64)
	}
	return keys
}

func BenchmarkMap(b *testing.B) {
	keys := mapKeys(1 << 20)
	b.Run("impl=old", func(b *testing.B) {
		c0 := cpuTime()
		for range b.N {
			t := newOldMap()
			for _, k := range keys {
				if _, ok := t.get(k); !ok {
					t.put(k, uint32(k))
				}
			}
		}
		reportCPU(b, c0)
	})
	b.Run("impl=new", func(b *testing.B) {
		c0 := cpuTime()
		for range b.N {
			t := NewMap()
			for _, k := range keys {
				if _, ok := t.Get(k); !ok {
					t.Put(k, uint32(k))
				}
			}
		}
		reportCPU(b, c0)
	})
}

// oldSeqs is cycles.interner: Seqs with oldSeqHash and its own probe.
type oldSeqs struct {
	data  []uint64
	off   []uint32
	table []uint32
	mask  uint64
}

func (in *oldSeqs) key(i uint32) []uint64 { return in.data[in.off[i]:in.off[i+1]] }

func (in *oldSeqs) intern(k []uint64) uint32 {
	n := len(in.off) - 1
	if (n+1)*4 > len(in.table)*3 {
		in.table = make([]uint32, 2*len(in.table))
		in.mask = uint64(len(in.table) - 1)
		for i := range uint32(n) {
			h := oldSeqHash(in.key(i)) & in.mask
			for in.table[h] != 0 {
				h = (h + 1) & in.mask
			}
			in.table[h] = i + 1
		}
	}
	for h := oldSeqHash(k) & in.mask; ; h = (h + 1) & in.mask {
		slot := in.table[h]
		if slot == 0 {
			in.data = append(in.data, k...)
			in.off = append(in.off, uint32(len(in.data)))
			in.table[h] = uint32(n) + 1
			return uint32(n)
		}
		if equal(in.key(slot-1), k) {
			return slot - 1
		}
	}
}

// seqKeys is sorted lists of element numbers, two to a word, as the
// shared exploration's sets are keyed: 1 to 3 words, most met before.
func seqKeys(n int) [][]uint64 {
	r := rand.New(rand.NewPCG(13, 14))
	keys := make([][]uint64, n)
	for i := range keys {
		k := make([]uint64, 1+r.IntN(3))
		for j := range k {
			k[j] = r.Uint64N(200)<<32 | r.Uint64N(200)
		}
		keys[i] = k
	}
	return keys
}

func BenchmarkSeqs(b *testing.B) {
	keys := seqKeys(1 << 19)
	b.Run("impl=old", func(b *testing.B) {
		c0 := cpuTime()
		for range b.N {
			t := &oldSeqs{off: []uint32{0}, table: make([]uint32, 1<<10), mask: 1<<10 - 1}
			for _, k := range keys {
				t.intern(k)
			}
		}
		reportCPU(b, c0)
	})
	b.Run("impl=new", func(b *testing.B) {
		c0 := cpuTime()
		for range b.N {
			t := NewSeqs()
			for _, k := range keys {
				t.Add(k)
			}
		}
		reportCPU(b, c0)
	})
}

// BenchmarkCache: four goroutines' gets and puts, two in three hits, the
// figure of the cache alone (old: the same code with oldMix would differ
// by BenchmarkHash/word).
func BenchmarkCache(b *testing.B) {
	keys := mapKeys(1 << 18)
	m := NewCache(1 << 18)
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			k := keys[i&(len(keys)-1)]
			if _, ok := m.Get(k); !ok {
				m.Put(k, uint32(k))
			}
			i++
		}
	})
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since c0.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
}
