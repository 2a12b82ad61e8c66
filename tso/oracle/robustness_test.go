package oracle

import (
	"testing"

	"github.com/pgasrob/pgasrob/tso/gen"
	"github.com/pgasrob/pgasrob/tso/prog"
)

// TestOracleSmall: hand-analysed verdicts (see examples/tso for the
// reasoning): SB is not robust under both models, MP only under PSO.
func TestOracleSmall(t *testing.T) {
	mp := `thread w
initial q0
transition q0 q1 write 1 0
transition q1 q2 write 1 1
end
thread r
initial q0
transition q0 q1 read f 1
transition q1 q2 read d 0
end
`
	cases := []struct {
		src  string
		m    prog.Model
		want prog.Verdict
	}{
		{sbSrc, prog.TSO, prog.NotRobust}, {sbSrc, prog.PSO, prog.NotRobust}, {mp, prog.TSO, prog.Robust}, {mp, prog.PSO, prog.NotRobust},
	}
	for _, c := range cases {
		o := Robustness(mustParse(t, c.src), c.m, Budget{MaxNodes: 100000})
		if o.Verdict != c.want {
			t.Errorf("%v: oracle %v, want %v", c.m, o.Verdict, c.want)
		}
	}
	// Loops make the oracle give up, never answer.
	o := Robustness(mustParse(t, gen.Ring(2)), prog.TSO, Budget{MaxNodes: 100000})
	if o.Verdict != prog.Unknown {
		t.Errorf("ring: oracle %v, want UNKNOWN", o.Verdict)
	}
}

func mustParse(t testing.TB, src string) *prog.Program {
	t.Helper()
	p, err := prog.ParseProgram("test.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sbSrc is the store-buffering program SB.
const sbSrc = `thread t0
initial q0
transition q0 q1 write 1 0
transition q1 q2 read r 1
end
thread t1
initial q0
transition q0 q1 write 1 1
transition q1 q2 read r 0
end
`
