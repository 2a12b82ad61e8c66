package pgas

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// staticErrors lists programs with one mistake each and the exact error
// Compile must report: position (line:col of the offending token) and
// message. The header (lines 1-4) is valid; the mistake is on line 5
// unless the case replaces the header.
var staticErrors = []struct {
	name, src, want string
}{
	// Syntax.
	{"bad character", header + "r <- 1 @ 2\n", "5:8: unexpected character '@'"},
	{"invalid utf8", header + "r <- \xff\n", "5:6: invalid byte 0xff"},
	{"missing operand", header + "r <- 1 +\n", "5:9: expected an expression, found \"end of line\""},
	{"unclosed paren", header + "r <- (1 + 2\n", "5:12: expected ), found \"end of line\""},
	{"junk after statement", header + "barrier barrier\n", "5:9: expected end of line, found name \"barrier\""},
	{"number too large", header + "r <- 99999999999999999999\n", "5:6: bad number \"99999999999999999999\": too large"},
	{"bad number", header + "r <- 12ab\n", "5:6: bad number \"12ab\": not a decimal integer"},
	{"unary plus", header + "r <- +1\n", "5:6: unary + is not an operator of .pgas"},
	{"statement starts with number", header + "1 <- r\n", "5:1: expected a statement, found number \"1\""},
	{"keyword as label", header + "barrier: r <- 1\n", "5:1: keyword \"barrier\" cannot be a label"},
	{"keyword as name", "values 2\naddress mem\n", "2:9: keyword \"mem\" cannot be used as an address name"},
	{"keyword at start", header + "rank <- 1\n", "5:1: unexpected keyword \"rank\" at the start of a statement"},
	{"keyword in expression", header + "r <- goto\n", "5:6: keyword \"goto\" cannot be used in an expression"},
	{"store needs mem", header + "mem <- 1\n", "5:5: expected [ after mem, found \"<-\""},
	{"store target not mem", header + "mem[x] + 1 <- 1\n", "5:1: expected mem[address] <- value"},
	{"goto needs target", header + "goto\n", "5:5: expected a label, found \"end of line\""},
	{"semicolon without goto", header + "r <- 1; s <- 2\n", "5:9: expected goto after \";\", found name \"s\""},
	{"goto suffix on goto", header + "L: goto L; goto L\n", "5:10: a goto cannot have a \"; goto\" suffix"},
	{"if without goto", header + "if r == 1 then L\n", "5:11: expected goto or { after the condition of if, found name \"then\""},
	{"handle on get", header + "get(x, 1, y, q) -> h\n", "5:17: only read and write take a handle (get already waits)"},
	{"declaration after statement", header + "barrier\nregister t\n", "6:1: declaration \"register\" after the first statement; declarations come first"},
	{"program named twice", "program a\nprogram b\nvalues 2\n", "2:1: program name given twice"},
	{"values twice", "values 2\nvalues 3\n", "2:1: values declared twice"},
	{"array size zero", "values 2\naddress b[0]\n", "2:11: array size 0 outside 1..64"},
	{"deep nesting", header + "r <- " + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100) + "\n", "5:70: expression nested too deeply (limit 64)"},
	{"deep unary", header + "r <- " + strings.Repeat("-", 100) + "1\n", "5:70: expression nested too deeply (limit 64)"},
	// Declarations and names.
	{"values missing", "address x\n", "1:1: missing \"values K\" declaration (DOM is 0..K-1; or \"values LO..HI\")"},
	{"values too small", "values 1\n", "1:8: values 1 outside 2..4294967296"},
	{"values too large", "values 4294967297\n", "1:8: values 4294967297 outside 2..4294967296"},
	{"window without 0", "values 1..5\n", "1:8: values 1..5 must contain 0 and 1 (LO <= 0 < HI)"},
	{"window without 1", "values -5..0\n", "1:8: values -5..0 must contain 0 and 1 (LO <= 0 < HI)"},
	{"window too wide", "values -4294967297..3\n", "1:8: values -4294967297..3 outside -4294967296..4294967296"},
	{"window half", "values -3..\n", "1:12: expected the largest value HI of LO..HI, found \"end of line\""},
	{"duplicate name", "values 2\naddress x\nregister x\n", "3:10: x redeclared (already an address, declared at 2:9)"},
	{"duplicate queue", "values 2\nqueue q, q\n", "2:10: q redeclared (already a queue, declared at 2:7)"},
	{"undefined name", header + "r <- z\n", "5:6: undefined name z"},
	{"undefined register", header + "t <- 1\n", "5:1: undefined register t"},
	{"address as register", header + "x <- 1\n", "5:1: x is an address, not a register (to store into memory write mem[x] <- ...)"},
	{"queue as register", header + "q <- 1\n", "5:1: q is a queue, not a register"},
	{"handle in expression", header + "write(x, 1, y, q) -> h\nr <- h\n", "6:6: handle h cannot be used in an expression (only in \"wait h\")"},
	{"handle clashes", header + "write(x, 1, y, q) -> r\n", "5:22: r is a register, not a handle"},
	{"wait undefined handle", header + "wait h\n", "5:6: undefined handle h (a handle is named by \"read(...) -> h\" or \"write(...) -> h\")"},
	{"wait on register", header + "wait r\n", "5:6: r is a register, not a handle"},
	// Arity, queues, mem.
	{"write arity", header + "write(x, 1, y)\n", "5:1: write takes 4 arguments (local address, rank, remote address, queue), found 3"},
	{"get arity", header + "get(x, 1, y, q, q)\n", "5:1: get takes 4 arguments (local address, rank, remote address, queue), found 5"},
	{"no queue declared", "values 2\naddress x\nwrite(x, 1, x, 0)\n", "3:1: write(x, 1, x, 0) needs a queue, but no queue is declared (add \"queue q\")"},
	{"waitq without queue", "values 2\nwaitq 0\n", "2:1: waitq 0 needs a queue, but no queue is declared (add \"queue q\")"},
	{"nested mem", header + "r <- mem[mem[x]]\n", "5:10: mem[...] is not allowed in an address argument: load it into a register first (r <- mem[a])"},
	{"mem in arithmetic", header + "r <- mem[x] + 1\n", "5:6: mem[...] is not allowed in a value (only a whole load r <- mem[a] reads memory): load it into a register first (r <- mem[a])"},
	{"mem in store value", header + "mem[x] <- mem[y]\n", "5:11: mem[...] is not allowed in a value (only a whole load r <- mem[a] reads memory): load it into a register first (r <- mem[a])"},
	{"mem in assume", header + "assume mem[x] == 1\n", "5:8: mem[...] is not allowed in a condition: load it into a register first (r <- mem[a])"},
	{"mem in write", header + "write(mem[x], 1, y, q)\n", "5:7: mem[...] is not allowed in an address argument: load it into a register first (r <- mem[a])"},
	{"assert without mem", header + "assert r == 1\n", "5:1: assert needs exactly one mem[...] in its condition, found 0 (use assume for a condition on registers)"},
	{"assert with two mems", header + "assert mem[x] == mem[y]\n", "5:1: assert needs exactly one mem[...] in its condition, found 2 (use assume for a condition on registers)"},
	{"assert nested mem", header + "assert mem[mem[x]] == 1\n", "5:12: mem[...] cannot be nested"},
	{"handle reissued", header + "write(x, 1, y, q) -> h\nwrite(x, 1, y, q) -> h\n", "6:1: handle h is issued again while its previous operation may still be pending: wait h first"},
	{"handle reissued in loop", header + "L: read(x, 1, y, q) -> h\nif r == 0 goto L\nwait h\n", "5:4: handle h is issued again while its previous operation may still be pending: wait h first"},
	{"handle reissued on one path", header + "write(x, 1, y, q) -> h\ngoto A, B\nA: wait h\nB: write(x, 1, y, q) -> h\n", "8:4: handle h is issued again while its previous operation may still be pending: wait h first"},
	// Labels.
	{"undefined label", header + "goto L\n", "5:6: undefined label L"},
	{"undefined if label", header + "if r goto L\n", "5:11: undefined label L"},
	{"duplicate label falls through", header + "L: r <- 1; goto L\nL: r <- 2\n", "6:1: label L is on several statements (a non-deterministic choice), so each must end with an explicit goto, but this one falls through to the next line"},
	{"duplicate label at end", header + "L: r <- 1; goto L\nL:\n", "6:1: label L is on several statements (a non-deterministic choice), so each must end with an explicit goto, but this one labels the end of the program"},
	{"label twice on a statement", header + "L: L: r <- 1\n", "5:4: label L written twice on the same statement"},
	// Constant values out of range, overflow.
	{"value out of range", header + "r <- 3\n", "5:6: value 3 = 3 outside 0..2"},
	{"negative value", header + "mem[x] <- 1 - 2\n", "5:11: value 1 - 2 = -1 outside 0..2"},
	{"address out of range", header + "r <- mem[a + 2]\n", "5:10: address a + 2 = 4 outside 0..3"},
	{"no address declared", "values 2\nregister r\nr <- mem[0]\n", "3:10: no address is declared"},
	{"queue out of range", header + "write(x, 1, y, 2)\n", "5:16: queue 2 = 2 outside 0..1"},
	{"rank zero", header + "read(x, 0, y, q)\n", "5:9: rank 0 = 0 outside 1..16 for every N (N is at most 16)"},
	{"rank above limit", header + "read(x, 17, y, q)\n", "5:9: rank 17 = 17 outside 1..16 for every N (N is at most 16)"},
	{"division by zero", header + "r <- 1 / (2 - 2)\n", "5:6: division by zero in 1 / (2 - 2)"},
	{"rank always above N", header + "read(x, N + 1, y, q)\n", "5:9: rank N + 1 = 2 outside 1..1 when N = 1, and out of range for every N up to 16"},
	{"value depends on N", header + "r <- N + 2\n", "5:6: value N + 2 = 3 outside 0..2 when N = 1, and out of range for every N up to 16"},
	{"overflow", header + "r <- 4611686018427387904 + 4611686018427387904\n", "5:6: expression 4611686018427387904 + 4611686018427387904 may exceed 64-bit arithmetic (registers bounded by the largest |value|, rank and N by 16)"},
	{"register overflow", header + "r <- r * 2147483647 * 2147483647\n", "5:6: expression r * 2147483647 * 2147483647 may exceed 64-bit arithmetic (registers bounded by the largest |value|, rank and N by 16)"},
	// Limits.
	{"too many registers", "values 2\nregister " + names("r", 33) + "\n", "2:10: too many registers: 33 (with the hidden one), limit 32"},
	{"too many registers with hidden", "values 2\naddress x\nregister " + names("r", 32) + "\nassert mem[x] == 0\n", "3:10: too many registers: 33 (with the hidden one), limit 32"},
	{"too many queues", "values 2\nqueue " + names("q", 17) + "\n", "2:7: too many queues: 17, limit 16"},
	{"too many addresses", "values 2\naddress a[60], b[5]\n", "2:9: too many addresses: 65 (0 of them hidden, for handles and waits), limit 64"},
	{"too many addresses with hidden", "values 2\naddress a[63]\nqueue q\nget(a, 1, a, q)\n", "2:9: too many addresses: 65 (2 of them hidden, for handles and waits), limit 64"},
	{"too many statements", "values 2\n" + strings.Repeat("barrier\n", MaxStates+1), "4098:1: too many statements: 4097, limit 4096"},
	{"too many states", "values 2\naddress x\nqueue q\n" + strings.Repeat("put(x, 1, x, q)\n", 1100), "1:1: program has more than 4096 control states after expanding sugar, limit 4096"},
	{"too many transitions", "values 2\naddress x\n" + blowUp(1000), "1:1: program has more than 65536 transitions after eliminating gotos, limit 65536"},
}

// blowUp builds n statements whose goto closures are all n wide: n*n
// transitions after epsilon elimination.
func blowUp(n int) string {
	var b strings.Builder
	b.WriteString("B: goto ")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "A%d", i)
	}
	b.WriteString("\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "A%d: mem[x] <- 1; goto X%d\nX%d: goto B\n", i, i, i)
	}
	return b.String()
}

func names(prefix string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(prefix)
		b.WriteString(strings.Repeat("x", i%3))
		b.WriteString(string(rune('a' + i/3%26)))
		b.WriteString(string(rune('a' + i%26)))
	}
	return b.String()
}

func TestStaticErrors(t *testing.T) {
	for _, tt := range staticErrors {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile("t.pgas", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; compiled to\n%s", p)
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an ErrorList: %v", err, err)
			}
			if p != nil {
				t.Errorf("program returned with errors")
			}
			want := "t.pgas:" + tt.want
			if list[0].Error() != want {
				t.Errorf("first error\n got  %s\n want %s\nall:\n%s", list[0], want, err)
			}
		})
	}
}

func TestErrorListSortedAndPrinted(t *testing.T) {
	src := header + "r <- z\nt <- 1\ngoto L\n"
	_, err := Compile("f.pgas", []byte(src))
	want := "f.pgas:5:6: undefined name z\nf.pgas:6:1: undefined register t\nf.pgas:7:6: undefined label L"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	// Syntax errors: one per line, and the parser goes on with the next.
	_, err = Compile("f.pgas", []byte(header+"r <- (\nbarrier\ns <- )\n"))
	want = "f.pgas:5:7: expected an expression, found \"end of line\"\nf.pgas:7:6: expected an expression, found \")\""
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestCheckN(t *testing.T) {
	p := mustCompile(t, header+"read(x, 3, y, q)\nwrite(x, N, y, q)\nread(x, N - 1, y, q)\nwrite(x, rank + 5, y, q)\nmem[x] <- N - 1\n")
	tests := []struct {
		n    int
		want string // "" for no error
	}{
		{0, "N = 0: the number of ranks must be at least 1"},
		{17, "N = 17: at most 16 ranks are supported"},
		// rank 3 is out of range for N < 3, rank N - 1 for N = 1; N - 1
		// is a value 0..2 only for N <= 3. rank + 5 depends on the rank
		// and is left to run time.
		{1, "t.pgas:5:9: 3: rank 3 outside 1..1 for N = 1\nt.pgas:7:9: N - 1: rank 0 outside 1..1 for N = 1"},
		{2, "t.pgas:5:9: 3: rank 3 outside 1..2 for N = 2"},
		{3, ""},
		{4, "t.pgas:9:11: N - 1: value 3 outside 0..2 for N = 4"},
	}
	for _, tt := range tests {
		err := CheckN(p, tt.n)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckN(%d):\n got  %s\n want %s", tt.n, got, tt.want)
		}
	}
	if err := CheckN(mustCompile(t, header+"write(x, rank % N + 1, y, q)\n"), 1); err != nil {
		t.Errorf("ring on one rank: %v", err)
	}
}
