package table

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHashOneFunction: Word and Pair are Hash of one and two words, so
// that every table hashes with the same function.
func TestHashOneFunction(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		a, b := r.Uint64(), r.Uint64()
		if Word(a) != Hash([]uint64{a}) {
			t.Fatalf("Word(%#x) = %#x, Hash = %#x", a, Word(a), Hash([]uint64{a}))
		}
		if Pair(a, b) != Hash([]uint64{a, b}) {
			t.Fatalf("Pair(%#x, %#x) differs from Hash", a, b)
		}
	}
}

// TestHashSpreadsLowBits: packed states differ mostly in a few low bits;
// masked to a table of 1,024 slots, the hashes of 0..65,535 (and of the
// same numbers shifted to the top of a two-word state) fill every slot
// about evenly.
func TestHashSpreadsLowBits(t *testing.T) {
	const slots, keys = 1 << 10, 1 << 16
	for _, f := range []func(i uint64) uint64{
		func(i uint64) uint64 { return Word(i) },
		func(i uint64) uint64 { return Pair(7, i<<40) },
	} {
		var n [slots]int
		for i := range uint64(keys) {
			n[f(i)&(slots-1)]++
		}
		lo, hi := slices.Min(n[:]), slices.Max(n[:])
		// 64 a slot on average; a uniform hash stays within ±40 here.
		if lo < 24 || hi > 104 {
			t.Errorf("slot loads %d..%d, want about 64", lo, hi)
		}
	}
}

// randomKeys is n keys with repeats, of length 1..maxLen words, drawn
// from few values so that many keys share words.
func randomKeys(seed uint64, n, maxLen int) [][]uint64 {
	r := rand.New(rand.NewPCG(seed, 3))
	keys := make([][]uint64, n)
	for i := range keys {
		k := make([]uint64, 1+r.IntN(maxLen))
		for j := range k {
			k[j] = r.Uint64N(8)
		}
		keys[i] = k
	}
	return keys
}

func key(k []uint64) string { return fmt.Sprint(k) }

// TestSeqsNumbersInOrder: Seqs numbers sequences in the order they are
// first added, through several growths, and gives each back; Arrays
// taken earlier still hold the sequences they covered.
func TestSeqsNumbersInOrder(t *testing.T) {
	s := NewSeqs()
	want := map[string]uint32{}
	var order [][]uint64
	var data []uint64
	var off []uint32
	for i, k := range randomKeys(1, 20_000, 6) {
		n, fresh := s.Add(k)
		w, known := want[key(k)]
		if !known {
			w = uint32(len(want))
			want[key(k)] = w
			order = append(order, k)
		}
		if n != w || fresh == known {
			t.Fatalf("key %d %v: number %d fresh %v, want %d fresh %v", i, k, n, fresh, w, !known)
		}
		if i == 500 {
			data, off = s.Arrays()
		}
	}
	if s.Len() != len(want) || s.index.Slots() < 1<<12 {
		t.Fatalf("%d sequences in %d slots, want %d (grown past 4,096 slots)", s.Len(), s.index.Slots(), len(want))
	}
	for i, k := range order {
		if !slices.Equal(s.Get(uint32(i)), k) {
			t.Fatalf("sequence %d is %v, want %v", i, s.Get(uint32(i)), k)
		}
		if i+1 < len(off) && !slices.Equal(data[off[i]:off[i+1]], k) {
			t.Fatalf("old arrays: sequence %d changed", i)
		}
	}
}

// TestVecsNumbersInOrder: as TestSeqsNumbersInOrder, for vectors of one
// width.
func TestVecsNumbersInOrder(t *testing.T) {
	v := NewVecs(3)
	want := map[[3]uint64]uint32{}
	r := rand.New(rand.NewPCG(5, 6))
	for range 30_000 {
		k := [3]uint64{r.Uint64N(30), r.Uint64N(30), r.Uint64N(30) << 50}
		w, ok := want[k]
		if !ok {
			w = uint32(len(want))
			want[k] = w
		}
		if n := v.Add(k[:]); n != w {
			t.Fatalf("%v: number %d, want %d", k, n, w)
		}
	}
	for k, n := range want {
		if !slices.Equal(v.Get(n), k[:]) {
			t.Fatalf("vector %d is %v, want %v", n, v.Get(n), k)
		}
	}
	if v.Len() != len(want) || v.Bytes() < int64(len(want))*24 {
		t.Fatalf("%d vectors, %d bytes", v.Len(), v.Bytes())
	}
}

// TestMapAgainstGo: Map and PairMap give what a Go map given the same
// puts gives, through several growths; Number numbers keys in order.
func TestMapAgainstGo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	m, pm, num := NewMap(), NewPairMap(), NewMap()
	ref, pref, nref := map[uint64]uint32{}, map[[2]uint64]uint32{}, map[uint64]uint32{}
	for range 50_000 {
		k, b, v := r.Uint64N(20_000)<<20, r.Uint64N(4), r.Uint32()>>1
		if got, ok := m.Get(k); ok != (ref[k] != 0) || ok && got != ref[k]-1 {
			t.Fatalf("Map.Get(%d) = %d, %v; want %d", k, got, ok, ref[k])
		}
		m.Put(k, v)
		ref[k] = v + 1
		pk := [2]uint64{k, b}
		if got, ok := pm.Get(k, b); ok != (pref[pk] != 0) || ok && got != pref[pk]-1 {
			t.Fatalf("PairMap.Get(%v) = %d, %v; want %d", pk, got, ok, pref[pk])
		} else if !ok {
			pm.Put(k, b, v)
			pref[pk] = v + 1
		}
		id, fresh := num.Number(k)
		w, known := nref[k]
		if !known {
			w = uint32(len(nref))
			nref[k] = w
		}
		if id != w || fresh == known {
			t.Fatalf("Number(%d) = %d, %v; want %d, %v", k, id, fresh, w, !known)
		}
	}
	if m.Len() != len(ref) || pm.Len() != len(pref) {
		t.Fatalf("lengths %d, %d; want %d, %d", m.Len(), pm.Len(), len(ref), len(pref))
	}
}

// TestIndexFindAdd: Find reports the empty slot where a missing key
// goes, Add numbers it, and Grow keeps every entry findable.
func TestIndexFindAdd(t *testing.T) {
	x := MakeIndex(8)
	var keys []uint64
	for k := uint64(0); k < 100; k++ {
		eq := func(i uint32) bool { return keys[i] == k*k }
		if x.Crowded() {
			before := x.Slots()
			if g := x.GrowthBytes(); g != int64(before)*8 {
				t.Fatalf("GrowthBytes %d with %d slots", g, before)
			}
			x.Grow(func(i uint32) uint64 { return Word(keys[i]) })
		} else if x.GrowthBytes() != 0 {
			t.Fatalf("GrowthBytes %d when not crowded", x.GrowthBytes())
		}
		_, slot, ok := x.Find(Word(k*k), eq)
		if ok {
			t.Fatalf("key %d found before it was added", k*k)
		}
		keys = append(keys, k*k)
		if n := x.Add(slot); n != uint32(k) {
			t.Fatalf("Add gave %d, want %d", n, k)
		}
	}
	for k := uint64(0); k < 100; k++ {
		n, _, ok := x.Find(Word(k*k), func(i uint32) bool { return keys[i] == k*k })
		if !ok || n != uint32(k) {
			t.Fatalf("key %d: %d, %v", k*k, n, ok)
		}
	}
	if x.Len() != 100 || x.Slots() != 256 {
		t.Fatalf("%d entries in %d slots, want 100 in 256", x.Len(), x.Slots())
	}
}
