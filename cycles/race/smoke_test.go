package race

import (
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

func mustCompile(t *testing.T, src string) *pgas.Program {
	t.Helper()
	p, err := pgas.Compile("t.pgas", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSmoke: the two simplest verdicts. mp-putval: the flag is written by
// a put (putval) and read by a plain load: a put is not atomic, so nothing
// orders the popb and the load (RACE). amo-counter: every access to cnt
// is a fetching atomic (atomics do not race), ticket is written by its
// owner only (RACE-FREE).
func TestSmoke(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      Verdict
	}{
		{"mp-putval", `program a
values 2
address data, flag
context c
    if rank != 1 goto CONSUMER
    putval(1, 2, data, c)
    putval(1, 2, flag, c); goto END
CONSUMER:
    assert mem[flag] == 1
    assert mem[data] == 1
END:
`, Race},
		{"amo-counter", `program b
values 4
address cnt, ticket
register r
context c
    r <- amo_fetch_inc(1, cnt, c)
    mem[ticket] <- r
`, RaceFree},
	} {
		res := Decide(mustCompile(t, tc.src), 2, Options{})
		if res.Verdict != tc.want {
			t.Errorf("%s: %v, want %v (%s)", tc.name, res.Verdict, tc.want, res.Reason)
		}
		if res.Witness != nil {
			t.Logf("%s: %v race %d %d", tc.name, res.Witness.Events, res.Witness.I, res.Witness.J)
		}
	}
}
