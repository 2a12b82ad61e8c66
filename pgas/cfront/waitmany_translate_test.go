package cfront

import (
	"fmt"
	"strings"
	"testing"
)

// count is the number of lines of lines equal to want.
func count(lines []string, want string) int {
	k := 0
	for _, l := range lines {
		if l == want {
			k++
		}
	}
	return k
}

func prefixed(lines []string, p string) int {
	k := 0
	for _, l := range lines {
		if strings.HasPrefix(l, p) {
			k++
		}
	}
	return k
}

// The translations of docs/shmem.md, "Waiting on several ivars": the
// loads each routine makes, in every order, and its choices.
func TestWaitManyTranslation(t *testing.T) {
	// test_all of 2 cells: two orders, each loading both cells once
	lines, _ := body(t, wrap("long f[2]; long x;", "x = shmem_long_test_all(f, 2, NULL, SHMEM_CMP_EQ, 1);"))
	if count(lines, "tmp0 <- mem[f]") != 2 || count(lines, "tmp1 <- mem[f + 1]") != 2 ||
		!has(lines, "tmp1 <- mem[f + 1]", "tmp0 <- mem[f]") || !has(lines, "tmp0 <- mem[f]", "tmp1 <- mem[f + 1]") ||
		!has(lines, "tmp2 <- ((tmp0 == 1) && (tmp1 == 1))", "mem[x] <- tmp2") {
		t.Errorf("test_all:\n%s", strings.Join(lines, "\n"))
	}
	// test_any with a status array: status loads first, loads skip an
	// excluded cell, a choice of a satisfied index or the sentinel 2
	lines, _ = body(t, wrap("long f[2];", "int st[2]; st[0] = 0; st[1] = 1;\n if (shmem_long_test_any(f, 2, st, SHMEM_CMP_EQ, 1) != SIZE_MAX) abort();"))
	if !has(lines, "tmp0 <- mem[st]", "tmp1 <- mem[st + 1]") || prefixed(lines, "if !(tmp1 == 0) goto ") != 2 ||
		count(lines, "assume ((tmp0 == 0) && (tmp2 == 1))") != 1 || count(lines, "tmp4 <- 2") != 1 ||
		prefixed(lines, "if !((tmp4 != 2)) goto ") != 1 {
		t.Errorf("test_any:\n%s", strings.Join(lines, "\n"))
	}
	// wait_until_some of 2 cells: 2 awaited cells x 2 orders, one await each
	lines, _ = body(t, wrap("long f[2];", "size_t idx[2];\n shmem_long_wait_until_some(f, 2, idx, NULL, SHMEM_CMP_EQ, 1);"))
	if count(lines, "tmp0 <- mem[f] when (tmp0 == 1)") != 2 || count(lines, "tmp1 <- mem[f + 1] when (tmp1 == 1)") != 2 ||
		count(lines, "tmp0 <- mem[f]") != 2 || count(lines, "mem[idx + (tmp2 + ((tmp2 < 0) || (tmp2 >= 2)) * 64)] <- 1") != 2 {
		t.Errorf("wait_until_some:\n%s", strings.Join(lines, "\n"))
	}
	// a result that may be SIZE_MAX read as a value is guarded
	lines, _ = body(t, wrap("long f[2]; long x;", "size_t i = shmem_long_test_any(f, 2, NULL, SHMEM_CMP_EQ, 1);\n x = i + 1;"))
	if prefixed(lines, fmt.Sprintf("tmp3 <- i + (i == 2) * %d", sizeMaxGuard)) != 1 || count(lines, "mem[x] <- (i + 1)") != 1 {
		t.Errorf("guard:\n%s", strings.Join(lines, "\n"))
	}
}
