package prog

import "testing"

func mustParse(t testing.TB, src string) *Program {
	t.Helper()
	p, err := ParseProgram("test.txt", []byte(src))
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
