package cycles

import (
	"testing"

	"github.com/pgasrob/pgasrob/normalform"
	"github.com/pgasrob/pgasrob/pgas"
)

type (
	normalformMove = normalform.Move
	normalformMark = normalform.Mark
)

func mustY(t *testing.T, p *pgas.Program, n int) *normalform.Y {
	t.Helper()
	y, err := normalform.New(p, n)
	if err != nil {
		t.Fatal(err)
	}
	return y
}
