package prog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseInstructions(t *testing.T) {
	src := `# comment
memory_size 4
thread t1
initial q0
transition q0 q1 write + r 1 2   # trailing comment
transition q1 q2 read r 1
transition q2 q3 local x ! == r 0
transition q3 q4 check && x || 1 0
transition q4 q5 fence 1 + r 2
transition q5 q6 sfence
transition q6 q7 mfence
transition q7 q8 lock
transition q8 q9 unlock
transition q9 q0 noop
transition q0 q0 write -3 & r 1
end
`
	p, err := ParseProgram("a.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	th := p.Threads[0]
	wantOps := []Op{OpWrite, OpRead, OpLocal, OpCheck, OpFence, OpSFence, OpMFence, OpLock, OpUnlock, OpNoop, OpWrite}
	if len(th.Trans) != len(wantOps) {
		t.Fatalf("%d transitions, want %d", len(th.Trans), len(wantOps))
	}
	for i, op := range wantOps {
		if th.Trans[i].Op != op {
			t.Errorf("transition %d: op %v, want %v", i, th.Trans[i].Op, op)
		}
	}
	if !p.HasFence || len(th.Trans[4].Addrs) != 2 {
		t.Errorf("fence not parsed as a two-address list: %+v", th.Trans[4])
	}
	if p.MemorySize != 4 || len(p.Cells) != 4 {
		t.Errorf("memory %d, cells %v; want 4 and all of 0..3 (addresses use registers)", p.MemorySize, p.Cells)
	}
	// + r 1 with r = 2 is 3; -3 & 2 is 2 (two's complement ...11101 & 10).
	if v := th.Trans[0].Val.Eval([]int64{2}); v != 3 {
		t.Errorf("+ r 1 = %d", v)
	}
	if v := th.Trans[10].Val.Eval(nil); v != -3 {
		t.Errorf("-3 = %d", v)
	}
	if v := th.Trans[10].Addr.Eval([]int64{2}); v != 0 {
		t.Errorf("& r 1 with r=2 gives %d, want 0", v)
	}
	if v := th.Trans[2].Val.Eval([]int64{5}); v != 1 {
		t.Errorf("! == r 0 with r=5 gives %d, want 1", v)
	}
	// Round trip through String.
	q, err := ParseProgram("b.txt", []byte(p.String()))
	if err != nil {
		t.Fatalf("reparse: %v\n%s", err, p.String())
	}
	if q.String() != p.String() {
		t.Errorf("round trip changed the program:\n%s\n%s", p, q)
	}
}

func TestParseConstantCells(t *testing.T) {
	p, err := ParseProgram("c", []byte("thread a initial q transition q r write 1 7 transition r s read x 3 end"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cells) != 2 || p.Cells[0] != 3 || p.Cells[1] != 7 {
		t.Errorf("cells %v, want [3 7]", p.Cells)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src, want string // want: "line:col: substring"
	}{
		{"", "1:1: the program has no thread"},
		{"thread", "1:7: unexpected end of file, expected a thread name"},
		{"thread t\ninitial q\ntransition q r wrte 1 0\nend", "3:16: unknown instruction \"wrte\""},
		{"thread t\ninitial q\ntransition q r write 1\nend", "4:1: expected an expression, found keyword \"end\""},
		{"thread t\ntransition q r noop\nend", "1:1: thread t has no \"initial\" line"},
		{"thread t\ninitial q\ninitial r\nend", "3:1: thread t has two \"initial\" lines"},
		{"thread t initial q end thread t initial q end", "1:24: thread t defined twice"},
		{"bogus", "1:1: expected \"thread\" or \"memory_size\""},
		{"memory_size 0", "1:13: memory_size must be"},
		{"memory_size 2 thread t initial q transition q r write 1 5 end", "1:57: address 5 outside 0..1"},
		{"thread t initial q transition q r read 5 1 end", "1:40: \"5\" is not a register name"},
		{"thread t initial q transition q r check + 1 99999999999 end", "1:45: constant 99999999999 does not fit"},
		{"thread t\ninitial q\ntransition q r fence\nend", "3:16: fence needs at least one address"},
		{"thread t initial q transition q r noop", "1:39: unexpected end of file, expected \"initial\""},
		{"thread t initial q transition q r check " + strings.Repeat("! ", 100) + "1 end", "expression nested deeper"},
		{"thread t initial q transition q r check thread end", "1:41: expected an expression, found keyword \"thread\""},
		{"thread end", "1:8: expected a thread name, found keyword \"end\""},
	}
	for _, tc := range tests {
		_, err := ParseProgram("f.txt", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.src, tc.want)
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v is not an *Error", tc.src, err)
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "f.txt:") {
			t.Errorf("%q:\n got %v\nwant f.txt:%s", tc.src, err, tc.want)
		}
	}
}

// FuzzParse: no input may make the front end panic or hang, and whatever it
// accepts must print back to an equivalent program. Seeds: the corpus, the
// examples, and the error cases above.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{filepath.Join("..", "..", "..", "shared", "corpus", "trencher"), filepath.Join("..", "..", "examples", "tso")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src)
			}
		}
	}
	for _, s := range []string{"", "thread", "thread t initial q transition q r fence 1 2\nend", "memory_size 3 thread t initial q transition q q write - 0 1 2 end",
		"thread t initial q transition q r check ! ! ! 1 end", "thread t initial q transition q r read x x end"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := ParseProgram("fuzz", src)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		q, err := ParseProgram("again", []byte(p.String()))
		if err != nil {
			t.Fatalf("printed program does not parse: %v\n%s", err, p)
		}
		if q.String() != p.String() {
			t.Fatalf("round trip changed the program")
		}
	})
}
