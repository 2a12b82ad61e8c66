package cfront

import (
	"strings"
	"testing"
)

// convSeeds are fragments of every implicit conversion to an unsigned
// type (conv.go) for FuzzTranslate.
var convSeeds = []string{
	wrap("long x;", "int me = shmem_my_pe(); uint64_t y = me - 1; x = y > 5;"),
	wrap("long x;", "unsigned short h = ~(unsigned short)0; unsigned char c = 300; c -= 1; h++; x = h + c;"),
	wrap("long x; static uint64_t sig; static unsigned u = -1;", "shmem_uint64_atomic_set(&sig, shmem_my_pe() - 1, 1); x = u < -1;"),
	wrap("long x; static size_t f(long v) { return v; }", "size_t n = 0; n--; x = f(n) / (shmem_my_pe() - 1) + (shmem_my_pe() ? 1u : -1);"),
	wrap("long x;", "unsigned u = 3; u *= shmem_my_pe() - 2; u %= -3; x = (shmem_my_pe() - 1) | 1u;"),
}

// TestGuardValues: sizeMaxGuard was poisonValue, so every run-time error
// of an undefined OpenSHMEM call (a collective's overflow, a PE outside a
// team) was reported as SIZE_MAX used as a value. The three guards now
// have distinct values, bands that do not meet, and distinct messages.
func TestGuardValues(t *testing.T) {
	if IsSizeMaxGuard(poisonValue) || IsSizeMaxGuard(wrapGuard) || !IsSizeMaxGuard(sizeMaxGuard) || !IsSizeMaxGuard(sizeMaxGuard+maxArray) {
		t.Errorf("guard bands overlap: poison %d, SIZE_MAX %d..%d, wrap %d", poisonValue, sizeMaxGuard, sizeMaxGuard+maxArray, wrapGuard)
	}
	msgs := map[string]bool{}
	for v, want := range map[int64]string{poisonValue: "undefined", sizeMaxGuard + 2: "SIZE_MAX", wrapGuard: "unsigned type"} {
		msg, ok := GuardError(v)
		if !ok || !strings.Contains(msg, want) || msgs[msg] {
			t.Errorf("GuardError(%d) = %q, %v; want a message of its own naming %q", v, msg, ok, want)
		}
		msgs[msg] = true
	}
	if _, ok := GuardError(poisonValue - 1); ok {
		t.Errorf("an ordinary value named as a guard")
	}
}
