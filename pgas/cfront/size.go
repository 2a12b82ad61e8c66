// Sizes of allocations: constant once the program's constants and N, the
// number of PEs, are known; the same on every PE.

package cfront

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"github.com/pgasrob/pgasrob/pgas"
)

// maxAlloc bounds a size in bytes before it is turned into elements.
const maxAlloc = 1 << 40

// sizeArg evaluates a size or count argument of an allocation.
func (t *translator) sizeArg(e cc.ExpressionNode, routine string) int64 {
	if v, ok := t.bufSubst(e); ok { // buffer_heap.go: a shrunk heap buffer
		return v
	}
	if v, ok := constValue(e); ok {
		if v < 0 || v > maxAlloc {
			t.refuse(e, "size %d for %s", v, routine)
		}
		return v
	}
	s, ok := t.rankExpr(e)
	if !ok {
		t.refuse(e, "size of %s computed at run time: the translation needs a size fixed by the program's constants and the number of PEs", routine)
	}
	v, err := evalSize(s, t.opt.N)
	switch {
	case err == errNeedN:
		t.needN = true
		t.refuse(e, "the size of this %s depends on the number of PEs: the translation is made for one N (Options.N; on the command line, give one N, e.g. -n 3, not a range)", routine)
	case err == errRank:
		t.refuse(e, "size of %s that depends on the calling PE: the specification requires the same size on every PE", routine)
	case err != nil:
		t.refuse(e, "size of %s: %v", routine, err)
	case v < 0 || v > maxAlloc:
		t.refuse(e, "size %d for %s", v, routine)
	}
	return v
}

var (
	errNeedN = fmt.Errorf("needs N")
	errRank  = fmt.Errorf("depends on rank")
)

// evalSize evaluates a .pgas expression of constants and N (as rankExpr
// writes them) with N given; rank is refused.
func evalSize(s string, n int) (int64, error) {
	p := &sizeParser{toks: tokens(s), n: n}
	v, err := p.or()
	if err == nil && p.i != len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.i])
	}
	return v, err
}

func tokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] == '_') {
				j++
			}
			out = append(out, s[i:j])
			i = j
		case i+1 < len(s) && strings.Contains("== != <= >= && ||", s[i:i+2]):
			out = append(out, s[i:i+2])
			i += 2
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

type sizeParser struct {
	toks []string
	i    int
	n    int
}

var sizeLevels = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *sizeParser) or() (int64, error) { return p.level(0) }

func (p *sizeParser) level(k int) (int64, error) {
	if k == len(sizeLevels) {
		return p.unary()
	}
	x, err := p.level(k + 1)
	for err == nil && p.i < len(p.toks) && contains(sizeLevels[k], p.toks[p.i]) {
		op := p.toks[p.i]
		p.i++
		var y int64
		if y, err = p.level(k + 1); err == nil {
			x, err = apply(op, x, y)
		}
	}
	return x, err
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func apply(op string, x, y int64) (int64, error) {
	if (op == "/" || op == "%") && y == 0 {
		return 0, fmt.Errorf("division by zero")
	}
	if x > maxAlloc || y > maxAlloc || x < -maxAlloc || y < -maxAlloc {
		return 0, fmt.Errorf("too large")
	}
	return map[string]func() int64{
		"||": func() int64 { return b2i(x != 0 || y != 0) }, "&&": func() int64 { return b2i(x != 0 && y != 0) },
		"==": func() int64 { return b2i(x == y) }, "!=": func() int64 { return b2i(x != y) },
		"<": func() int64 { return b2i(x < y) }, "<=": func() int64 { return b2i(x <= y) },
		">": func() int64 { return b2i(x > y) }, ">=": func() int64 { return b2i(x >= y) },
		"+": func() int64 { return x + y }, "-": func() int64 { return x - y },
		"*": func() int64 { return x * y }, "/": func() int64 { return x / y }, "%": func() int64 { return x % y },
	}[op](), nil
}

func (p *sizeParser) unary() (int64, error) {
	if p.i >= len(p.toks) {
		return 0, fmt.Errorf("unexpected end")
	}
	tok := p.toks[p.i]
	p.i++
	switch tok {
	case "-", "!":
		v, err := p.unary()
		if tok == "-" {
			return -v, err
		}
		return b2i(v == 0), err
	case "(":
		v, err := p.or()
		if err == nil && (p.i >= len(p.toks) || p.toks[p.i] != ")") {
			return 0, fmt.Errorf("missing )")
		}
		p.i++
		return v, err
	case "N":
		if p.n == 0 {
			return 0, errNeedN
		}
		return int64(p.n), nil
	case "rank":
		return 0, errRank
	}
	v, err := strconv.ParseInt(tok, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("unexpected %q", tok)
	}
	return v, nil
}

// nConst evaluates an integer that is constant once N is known (an
// element count such as npes); ok is false for anything else. Without N,
// an expression in N is refused with a message asking for one N.
func (t *translator) nConst(e cc.ExpressionNode) (int64, bool) {
	if v, ok := t.bufSubst(e); ok { // buffer_plan.go
		return v, true
	}
	if v, ok := constValue(e); ok {
		return v, true
	}
	s, ok := t.rankExpr(e)
	if !ok {
		return 0, false
	}
	v, err := evalSize(s, t.opt.N)
	if err == errNeedN {
		t.needN = true
		t.refuse(e, "this count depends on the number of PEs: the translation is made for one N (Options.N; on the command line, give one N, e.g. -n 3, not a range)")
	}
	if err != nil {
		return 0, false
	}
	return v, true
}

// ErrNeedsN is matched (errors.Is) by the error of a translation that
// Options.N left open and that needs N: the size of an allocation or an
// element count depends on the number of PEs. The commands then translate
// the program once per N asked (cmd/pgasrob/pern.go). The error is also
// the pgas.ErrorList of its refusals (errors.As), the others included.
var ErrNeedsN = errors.New("the translation depends on the number of PEs")

// needsNError is the refusals of a translation, one of them ErrNeedsN.
type needsNError struct{ list pgas.ErrorList }

func (e *needsNError) Error() string   { return e.list.Error() }
func (e *needsNError) Unwrap() []error { return []error{e.list, ErrNeedsN} }
