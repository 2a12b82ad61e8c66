package cycles

import (
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// signalLitmus is message passing through a put with signal: rank 1 sets
// its s[0], s[1] and runs WRITER; rank 2 reads the flag f, then READ.
const signalLitmus = `values 2
address s[2], d[2], f, e
register r
context c

    if rank != 1 goto READER
    mem[s] <- 1
    mem[s+1] <- 1
WRITER
    goto END
READER:
    r <- mem[f]
    r <- mem[READ]
END:
`

// TestSignalElemsLitmus decides message passing with puts with signal of
// two elements, by Decide and by the oracle; the expected verdicts are
// argued by hand. A cycle needs rank 2 to read f = 1 and then the old
// value of the cell it reads: class(put of it) →po class(signal) →cf
// load f →po load of it →cf class(put of it).
//   - "two elements": the signal waits for both data sends (Cmd.Chain),
//     so f = 1 implies d[0] = 1: ROBUST.
//   - "split": the same data as a put and a one-element put with signal;
//     the signal waits only for d[1], so it may overtake the put of d[0]:
//     NOT ROBUST (this is why several elements were refused before Chain).
//   - "other put": a put of e before the call is no element of it, and
//     no fence orders it: NOT ROBUST.
//   - "fenced": the same with fence c between them: ROBUST.
func TestSignalElemsLitmus(t *testing.T) {
	for _, tc := range []struct{ name, writer, read, want string }{
		{"two elements", "put_signal_nbi(s, 2, d, f, 1, c, 2)", "d", "ROBUST"},
		{"split", "putmem_nbi(s, 2, d, c)\n    put_signal_nbi(s+1, 2, d+1, f, 1, c)", "d", "NOT ROBUST"},
		{"other put", "putval(1, 2, e, c)\n    put_signal_nbi(s, 2, d, f, 1, c, 2)", "e", "NOT ROBUST"},
		{"fenced", "putval(1, 2, e, c)\n    fence c\n    put_signal(s, 2, d, f, 1, c, 2)", "e", "ROBUST"},
	} {
		src := strings.NewReplacer("WRITER", "    "+tc.writer, "READ]", tc.read+"]").Replace(signalLitmus)
		p, err := pgas.Compile(tc.name+".pgas", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, src)
		}
		c := Compare(p, 2, DefaultCompareBudget)
		if c.Status != Agree || c.Decide != tc.want {
			t.Errorf("%s: decide %s, oracle %s (%v, %s), want %s\n%s", tc.name, c.Decide, c.Oracle, c.Status, c.Detail, tc.want, src)
		}
	}
}
