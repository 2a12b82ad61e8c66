package pgas

import (
	"strings"
	"testing"
)

// shmemHeader declares queues q, p (ids 0, 1) and contexts c, d (ids 2, 3);
// statements start on line 6.
const shmemHeader = "values 3\naddress x, y, a[2]\nregister r, s\nqueue q, p\ncontext c, d\n"

// TestShmemStatements checks each row of the surface-syntax table of
// docs/shmem-calculus.md against the core command it must lower to, and
// that every transition carries the statement's name as its sugar.
func TestShmemStatements(t *testing.T) {
	tests := []struct{ name, body, want, sugar string }{
		{"putmem", "putmem(x, 2, y, c)", "@6 -> @end: send blocking(none mem[x], 2, y, c)", "putmem"},
		{"putmem_nbi", "putmem_nbi(a+1, rank % N + 1, a, d)", "@6 -> @end: send(none mem[a+1], rank % N + 1, a, d)", "putmem_nbi"},
		{"putval", "putval(r + 1, 1, y, c)", "@6 -> @end: send(none r + 1, 1, y, c)", "putval"},
		// A blocking get waits for its own item only: it goes on the
		// hidden context, which nothing else uses.
		{"getmem", "getmem(x, 2, y, c)", lines(
			"@6 -> @6.1: recv(x, 2, y, $get)",
			"@6.1 -> @end: quiet $get"), "getmem getmem"},
		{"getmem_nbi", "getmem_nbi(x, 2, y, d)", "@6 -> @end: recv(x, 2, y, d)", "getmem_nbi"},
		{"fence", "fence c", "@6 -> @end: fence c", ""},
		{"quiet context", "quiet d", "@6 -> @end: quiet d", ""},
		{"amo_add", "amo_add(2, 1, x, c)", "@6 -> @end: send(add 2, 1, x, c)", "amo_add"},
		{"amo_inc", "amo_inc(1, x, c)", "@6 -> @end: send(add 1, 1, x, c)", "amo_inc"},
		{"amo_set", "amo_set(s, 1, x, c)", "@6 -> @end: send(none s, 1, x, c)", "amo_set"},
		{"amo_fetch", "r <- amo_fetch(1, x, c)", "@6 -> @end: r <- atomic(fetch, 1, x, <nil>, <nil>, c)", "amo_fetch"},
		{"amo_fetch_add", "r <- amo_fetch_add(2, 1, x, c)", "@6 -> @end: r <- atomic(add, 1, x, 2, <nil>, c)", "amo_fetch_add"},
		{"amo_fetch_inc", "s <- amo_fetch_inc(1, x, d)", "@6 -> @end: s <- atomic(add, 1, x, 1, <nil>, d)", "amo_fetch_inc"},
		{"amo_and", "amo_and(2, 1, x, c)", "@6 -> @end: send(and 2, 1, x, c)", "amo_and"},
		{"amo_or", "amo_or(s, 2, x, d)", "@6 -> @end: send(or s, 2, x, d)", "amo_or"},
		{"amo_xor", "amo_xor(1, 1, y, c)", "@6 -> @end: send(xor 1, 1, y, c)", "amo_xor"},
		{"amo_fetch_and", "r <- amo_fetch_and(2, 1, x, c)", "@6 -> @end: r <- atomic(and, 1, x, 2, <nil>, c)", "amo_fetch_and"},
		{"amo_fetch_or", "r <- amo_fetch_or(s, 1, x, c) when r == 0", "@6 -> @end: r <- atomic(or, 1, x, s, <nil>, c) when r == 0", "amo_fetch_or"},
		{"amo_fetch_xor", "s <- amo_fetch_xor(1, 2, y, d)", "@6 -> @end: s <- atomic(xor, 2, y, 1, <nil>, d)", "amo_fetch_xor"},
		{"amo_swap", "r <- amo_swap(s, 1, x, c)", "@6 -> @end: r <- atomic(swap, 1, x, s, <nil>, c)", "amo_swap"},
		{"amo_cswap", "r <- amo_cswap(0, 1, 2, x, c)", "@6 -> @end: r <- atomic(cswap, 2, x, 1, 0, c)", "amo_cswap"},
		{"lock", "r <- amo_cswap(0, 1, 1, x, c) when r == 0", "@6 -> @end: r <- atomic(cswap, 1, x, 1, 0, c) when r == 0", "amo_cswap"},
		{"put_signal", "put_signal(x, 2, y, a, 1, c)", lines(
			"@6 -> @6.1: send blocking(none mem[x], 2, y, c)",
			"@6.1 -> @end: send after(none 1, 2, a, c)"), "put_signal put_signal"},
		{"put_signal_add", "put_signal_add(x, 2, y, a, 1, c)", lines(
			"@6 -> @6.1: send blocking(none mem[x], 2, y, c)",
			"@6.1 -> @end: send after(add 1, 2, a, c)"), "put_signal_add put_signal_add"},
		{"put_signal_nbi", "put_signal_nbi(x, 2, y, a, r, d)", lines(
			"@6 -> @6.1: send(none mem[x], 2, y, d)",
			"@6.1 -> @end: send after(none r, 2, a, d)"), "put_signal_nbi put_signal_nbi"},
		{"put_signal_add_nbi", "put_signal_add_nbi(x, 2, y, a, 2, d)", lines(
			"@6 -> @6.1: send(none mem[x], 2, y, d)",
			"@6.1 -> @end: send after(add 2, 2, a, d)"), "put_signal_add_nbi put_signal_add_nbi"},
		// Several elements: the data sends after the first are Chain, so
		// the signal waits for all of them.
		{"put_signal of 2", "put_signal(a, 2, a, y, 1, c, 2)", lines(
			"@6 -> @6.1: send blocking(none mem[a], 2, a, c)",
			"@6.1 -> @6.2: send blocking chain(none mem[a+1], 2, a+1, c)",
			"@6.2 -> @end: send after(none 1, 2, y, c)"), "put_signal put_signal put_signal"},
		{"put_signal_add_nbi of 2", "put_signal_add_nbi(x, rank % N + 1, x, a, 1, d, 2)", lines(
			"@6 -> @6.1: send(none mem[x], rank % N + 1, x, d)",
			"@6.1 -> @6.2: send chain(none mem[x+1], rank % N + 1, x+1, d)",
			"@6.2 -> @end: send after(add 1, rank % N + 1, a, d)"), "put_signal_add_nbi put_signal_add_nbi put_signal_add_nbi"},
		// An issue order after the count: offset 1 is sent (and, being
		// blocking, read) first; it heads the chain, offset 0 joins it.
		{"put_signal of 2 in order 1, 0", "put_signal(a, 2, a, y, 1, c, 2, 1, 0)", lines(
			"@6 -> @6.1: send blocking(none mem[a+1], 2, a+1, c)",
			"@6.1 -> @6.2: send blocking chain(none mem[a], 2, a, c)",
			"@6.2 -> @end: send after(none 1, 2, y, c)"), "put_signal put_signal put_signal"},
		{"put_signal of 1", "put_signal(x, 2, y, a, 1, c, 1)", lines(
			"@6 -> @6.1: send blocking(none mem[x], 2, y, c)",
			"@6.1 -> @end: send after(none 1, 2, a, c)"), "put_signal put_signal"},
		{"await", "r <- mem[a+1] when r != 0 && r != s", "@6 -> @end: r <- mem[a+1] when r != 0 && r != s", ""},
		// quiet on a queue keeps its old meaning, waitq.
		{"quiet queue", "quiet q", lines(
			"@init -> @6: mem[$one] <- 1",
			"@6 -> @6.1: mem[$sync] <- 0",
			"@6.1 -> @6.2: read($sync, rank, $one, q)",
			"@6.2 -> @end: $t <- mem[$sync] when $t == 1"), "init waitq waitq waitq"},
		{"old write next to a context", "write(x, 2, y, p)", "@6 -> @end: write(x, 2, y, p)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustCompile(t, shmemHeader+tt.body+"\n")
			if got := transitions(p); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			var sugars []string
			for _, tr := range p.Trans {
				sugars = append(sugars, tr.Sugar)
				if tr.Sugar != "init" && (tr.Pos.Line != 6 || tr.Text != tt.body) {
					t.Errorf("transition at %v with text %q, want line 6 and %q", tr.Pos, tr.Text, tt.body)
				}
			}
			if got := strings.Join(sugars, " "); got != tt.sugar {
				t.Errorf("sugar names %q, want %q", got, tt.sugar)
			}
			checkWellFormed(t, p)
		})
	}
}

// TestContextIDs checks that queues and contexts share one id space in
// declaration order, that Program.Ctx marks the contexts, and that the
// hidden context of getmem comes last, only when needed.
func TestContextIDs(t *testing.T) {
	p := mustCompile(t, "values 2\naddress x\nqueue q\ncontext c\nqueue p\ncontext d\nputmem(x, 1, x, d)\nwrite(x, 1, x, p)\n")
	if got := strings.Join(p.Queues, " "); got != "q c p d" {
		t.Errorf("queues %q", got)
	}
	if want := []bool{false, true, false, true}; !equalBools(p.Ctx, want) {
		t.Errorf("Ctx %v, want %v", p.Ctx, want)
	}
	if v, _ := p.Trans[0].Cmd.Queue.Const(); v != 3 {
		t.Errorf("putmem on id %d, want 3", v)
	}
	if v, _ := p.Trans[1].Cmd.Queue.Const(); v != 2 {
		t.Errorf("write on id %d, want 2", v)
	}
	if !p.HasCtx() || !p.IsCtx(1) || p.IsCtx(2) {
		t.Errorf("HasCtx %v IsCtx(1) %v IsCtx(2) %v", p.HasCtx(), p.IsCtx(1), p.IsCtx(2))
	}
	p = mustCompile(t, "values 2\naddress x\ncontext c\ngetmem(x, 1, x, c)\n")
	if got := strings.Join(p.Queues, " "); got != "c $get" || !equalBools(p.Ctx, []bool{true, true}) {
		t.Errorf("queues %q Ctx %v", got, p.Ctx)
	}
	want := "program : values 0..1, addresses [x], registers [], queues [c $get], init @4\n" +
		"  @4 -> @4.1: recv(x, 1, x, $get)\n  @4.1 -> @end: quiet $get\n"
	if got := p.String(); got != want {
		t.Errorf("String:\n%s\nwant\n%s", got, want)
	}
	// No context declared: Ctx stays nil, as before.
	p = mustCompile(t, header+"write(x, 1, y, q)\n")
	if p.Ctx != nil || p.HasCtx() {
		t.Errorf("program without contexts has Ctx %v", p.Ctx)
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestShmemCheckN checks the range checks of the new operands that depend
// on N only.
func TestShmemCheckN(t *testing.T) {
	p := mustCompile(t, shmemHeader+"putval(N, 2, y, c)\nr <- amo_cswap(N - 1, 0, N, x, c)\n")
	tests := []struct {
		n    int
		want string
	}{
		{1, "t.pgas:6:11: 2: rank 2 outside 1..1 for N = 1"},
		{2, ""},
		{3, "t.pgas:6:8: N: value 3 outside 0..2 for N = 3"},
		{4, "t.pgas:6:8: N: value 4 outside 0..2 for N = 4\nt.pgas:7:16: N - 1: value 3 outside 0..2 for N = 4"},
	}
	for _, tt := range tests {
		got := ""
		if err := CheckN(p, tt.n); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckN(%d):\n got  %s\n want %s", tt.n, got, tt.want)
		}
	}
}

// shmemErrors are programs with one mistake in an OpenSHMEM statement and
// the first error Compile must report (line 6 is the first statement).
var shmemErrors = []struct{ name, src, want string }{
	{"context in write", shmemHeader + "write(x, 1, y, c)\n", "6:16: c is a context; write takes a queue"},
	{"context in get", shmemHeader + "get(x, 1, y, d)\n", "6:14: d is a context; get takes a queue"},
	{"context in waitq", shmemHeader + "waitq c\n", "6:7: c is a context; waitq takes a queue"},
	{"queue in putmem", shmemHeader + "putmem(x, 1, y, q)\n", "6:17: q is a queue; putmem takes a context"},
	{"queue in getmem", shmemHeader + "getmem(x, 1, y, p)\n", "6:17: p is a queue; getmem takes a context"},
	{"queue in fence", shmemHeader + "fence q\n", "6:7: q is a queue; fence takes a context"},
	{"expression as context", shmemHeader + "putmem(x, 1, y, c+0)\n", "6:17: putmem takes a context name, found c+0"},
	{"undefined context", shmemHeader + "fence e\n", "6:7: undefined context e"},
	{"register as context", shmemHeader + "amo_inc(1, x, r)\n", "6:15: r is a register, not a context"},
	{"context in expression", shmemHeader + "r <- c\n", "6:6: c is a context; it can only be named by fence, quiet or the last argument of an OpenSHMEM call, not used in an expression"},
	{"putmem arity", shmemHeader + "putmem(x, 1, y)\n", "6:1: putmem takes 4 arguments (local address, rank, remote address, context), found 3"},
	{"put_signal arity", shmemHeader + "put_signal(x, 1, y, a, c)\n", "6:1: put_signal takes 6 arguments (local address, rank, remote address, signal address, value, context) and optionally an element count n, then an issue order of n offsets, found 5"},
	{"put_signal count not constant", shmemHeader + "put_signal(x, 1, y, a, 1, c, r)\n", "6:30: the element count r of put_signal is not a constant of at least 1"},
	{"put_signal count 0", shmemHeader + "put_signal(x, 1, y, a, 1, c, 0)\n", "6:30: the element count 0 of put_signal is not a constant of at least 1"},
	{"put_signal count over the addresses", shmemHeader + "put_signal(x, 1, y, a, 1, c, 5)\n", "6:30: the element count 5 of put_signal is more than the 4 addresses"},
	{"put_signal elements beyond the addresses", shmemHeader + "put_signal_nbi(a, 1, y, x, 1, c, 3)\n", "6:16: address a+2 = 4 outside 0..3"},
	{"put_signal order too short", shmemHeader + "put_signal(a, 1, y, x, 1, c, 2, 1)\n", "6:33: the issue order of put_signal lists 1 offsets; it must list each of 0..1 once"},
	{"put_signal order repeats", shmemHeader + "put_signal(a, 1, y, x, 1, c, 2, 1, 1)\n", "6:36: the issue order of put_signal must list each offset 0..1 once, as constants; 1 is not one of them or repeats"},
	{"put_signal order not constant", shmemHeader + "put_signal(a, 1, y, x, 1, c, 2, r, 0)\n", "6:33: the issue order of put_signal must list each offset 0..1 once, as constants; r is not one of them or repeats"},
	{"amo_cswap arity", shmemHeader + "r <- amo_cswap(1, x, c)\n", "6:1: amo_cswap takes 5 arguments (comparand, value, rank, remote address, context), found 3"},
	{"fetch without register", shmemHeader + "amo_fetch(1, x, c)\n", "6:1: amo_fetch returns the old value: write r <- amo_fetch(...)"},
	{"fetch into address", shmemHeader + "x <- amo_fetch(1, x, c)\n", "6:1: x is an address, not a register (to store into memory write mem[x] <- ...)"},
	{"putmem in expression", shmemHeader + "r <- putmem(x, 1, y, c)\n", "6:6: keyword \"putmem\" cannot be used in an expression"},
	{"when on assignment", shmemHeader + "r <- 1 when r\n", "6:13: when needs a load (r <- mem[a] when g) or a fetching atomic (r <- amo_fetch(...) when g)"},
	{"mem in guard", shmemHeader + "r <- mem[x] when mem[y] == 1\n", "6:18: mem[...] is not allowed in a condition: load it into a register first (r <- mem[a])"},
	{"value out of range", shmemHeader + "putval(3, 1, y, c)\n", "6:8: value 3 = 3 outside 0..2"},
	{"comparand out of range", shmemHeader + "r <- amo_cswap(5, 1, 1, y, c)\n", "6:16: value 5 = 5 outside 0..2"},
	{"rank out of range", shmemHeader + "amo_inc(0, x, c)\n", "6:9: rank 0 = 0 outside 1..16 for every N (N is at most 16)"},
	{"signal address out of range", shmemHeader + "put_signal(x, 1, y, 9, 1, c)\n", "6:21: address 9 = 9 outside 0..3"},
	{"queue id of a context", shmemHeader + "write(x, 1, y, 2)\n", "6:16: queue 2 of write is 2, the id of context c; write takes a queue"},
	{"queue not constant", shmemHeader + "read(x, 1, y, r)\n", "6:15: queue r of read is not a constant; with contexts declared a queue must be known statically (it could name a context)"},
	{"context redeclared", "values 2\nqueue q\ncontext q\n", "3:9: q redeclared (already a queue, declared at 2:7)"},
	{"keyword fence", "values 2\naddress fence\n", "2:9: keyword \"fence\" cannot be used as an address name"},
	{"keyword when", "values 2\nregister when\n", "2:10: keyword \"when\" cannot be used as a register name"},
	{"too many contexts", "values 2\naddress x\nqueue " + names("q", 15) + "\ncontext c, d\n", "3:7: too many queues: 17 (2 of them contexts), limit 16"},
	{"hidden get context over the limit", "values 2\naddress x\nqueue " + names("q", 15) + "\ncontext c\ngetmem(x, 1, x, c)\n", "3:7: too many queues: 17 (2 of them contexts), with the hidden one of getmem, limit 16"},
}

func TestShmemErrors(t *testing.T) {
	for _, tt := range shmemErrors {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile("t.pgas", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; compiled to\n%s", p)
			}
			list, ok := err.(ErrorList)
			if !ok {
				t.Fatalf("error %T is not an ErrorList: %v", err, err)
			}
			if want := "t.pgas:" + tt.want; list[0].Error() != want {
				t.Errorf("first error\n got  %s\n want %s\nall:\n%s", list[0], want, err)
			}
		})
	}
}
