package repair

import (
	"fmt"
	"strings"
)

// Diff returns a unified diff of two texts, line by line, with one line of
// context: the repaired program against the input, small enough for the
// quadratic longest common subsequence.
func Diff(name string, a, b []byte) string {
	x, y := splitLines(a), splitLines(b)
	// lcs[i][j]: length of the longest common subsequence of x[i:], y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		line string
		i, j int // lines before this one in x and y
	}
	var ops []op
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i, j})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', x[i], i, j})
			i++
		default:
			ops = append(ops, op{'+', y[j], i, j})
			j++
		}
	}
	var b2 strings.Builder
	fmt.Fprintf(&b2, "--- %s\n+++ %s (repaired)\n", name, name)
	const context = 1
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		lo := max(k-context, 0)
		hi := k
		// Extend the hunk while changes are within 2*context lines.
		for hi < len(ops) {
			if ops[hi].kind != ' ' {
				hi++
				continue
			}
			run := hi
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run < len(ops) && run-hi <= 2*context {
				hi = run
				continue
			}
			hi = min(hi+context, len(ops))
			break
		}
		var na, nb int
		for _, o := range ops[lo:hi] {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&b2, "@@ -%d,%d +%d,%d @@\n", ops[lo].i+1, na, ops[lo].j+1, nb)
		for _, o := range ops[lo:hi] {
			fmt.Fprintf(&b2, "%c%s\n", o.kind, o.line)
		}
		k = hi
	}
	return b2.String()
}

func splitLines(s []byte) []string {
	t := strings.TrimSuffix(string(s), "\n")
	if t == "" {
		return nil
	}
	return strings.Split(t, "\n")
}
