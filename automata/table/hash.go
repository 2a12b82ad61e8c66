package table

// Hash is the one hash function of the tables: a multiply–xorshift mix
// per word (the finaliser of SplitMix64, applied to the running value
// xor the next word). Packed states vary most in their low bits, which
// the mix spreads over the whole word, so that masking the hash to a
// table's size leaves no pattern. It is also the hash the visited sets
// of automata always used: their numbering, which decides the shard of a
// shared state (automata.Interner), stays as it was.
func Hash(words []uint64) uint64 {
	h := uint64(seed)
	for _, w := range words {
		h = step(h, w)
	}
	return h
}

// Word is Hash of the one-word vector {k}.
func Word(k uint64) uint64 { return step(seed, k) }

// Pair is Hash of the two-word vector {a, b}.
func Pair(a, b uint64) uint64 { return step(step(seed, a), b) }

const seed = 0x9E3779B97F4A7C15

func step(h, w uint64) uint64 {
	h ^= w
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 31
	h *= 0x94D049BB133111EB
	h ^= h >> 29
	return h
}
