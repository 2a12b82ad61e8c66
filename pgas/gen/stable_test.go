package gen

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
)

// stableDigest is the SHA-256 of the programs the generator made, before
// Config.Shmem existed, for seeds 0..299 of each of configs(): the programs
// without Shmem must stay the same, seed for seed, so that seeds recorded
// by difftest and by the proofs still name the same programs.
const stableDigest = "92a51feaea95d47a33b2683e2e7633385435286e8c49f2285caac03cef29f2bc"

func TestGenerateStable(t *testing.T) {
	h := sha256.New()
	for ci, c := range configs() {
		for seed := uint64(0); seed < 300; seed++ {
			fmt.Fprintf(h, "%d %d\n%s", ci, seed, Generate(rand.New(rand.NewPCG(seed, uint64(ci))), c))
		}
	}
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != stableDigest {
		t.Errorf("programs without Shmem changed: digest %s, want %s", got, stableDigest)
	}
}
