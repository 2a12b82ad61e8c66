// Storage of block-scope locals used again after their block: the
// register of a scalar local, and the private cell of a scalar local
// whose address is taken, are free once the block that declares them
// ends, and a local declared later takes them, as a C compiler reuses a
// stack slot. Test programs made of one macro expanded per type (a
// `do { static T remote; T old; … } while (0)` block per case) would
// otherwise need a register or a cell per expansion, beyond the
// checker's 32 registers and 60 addresses.
//
// Why the translation stays exact: a block's local lives only while the
// block runs (C11 6.2.4), and no code outside the block names it, so the
// later local's accesses and the earlier one's never meet in one run of
// the block's code; the later local starts with whatever value the
// storage holds, which C calls indeterminate (a read before the first
// write is undefined or unspecified in C, and was the value 0 before).
// The one way storage outlives its block is an operation still pending
// on it: a cell named by a non-blocking put, get or put-with-signal
// (`…_nbi` in the .pgas of the block) is never used again. (A pointer
// kept past the block dangles: its use is undefined in C.)

package cfront

import (
	"regexp"
	"slices"
	"strings"

	"modernc.org/cc/v4"
)

// reusePool holds the storage the ended blocks left.
type reusePool struct {
	regs  []string
	cells []string
}

// blockEnd frees the scalar locals that the block cs declares directly,
// once its code, lines t.out[from:], is translated.
func (t *translator) blockEnd(cs *cc.CompoundStatement, from int) {
	var ds []*cc.Declaration
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		if it := l.BlockItem; it.Case == cc.BlockItemDecl {
			ds = append(ds, it.Declaration)
		}
	}
	t.releaseDecls(ds, from)
}

// releaseDecls frees the scalar locals of ds (a block's, or a for
// statement's), whose scope's code is t.out[from:].
func (t *translator) releaseDecls(ds []*cc.Declaration, from int) {
	if len(t.frames) == 0 {
		return
	}
	vars := t.frame().vars
	for _, decl := range ds {
		if decl.Case != cc.DeclarationDecl {
			continue
		}
		for il := decl.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
			d := il.InitDeclarator.Declarator
			e := vars[d]
			if e == nil || d.IsStatic() || e.length > 0 {
				continue
			}
			switch e.kind {
			case kReg:
				if _, sm := t.smLocal[e.name]; !sm { // its reads are guarded (sizemax.go)
					t.pool.regs = append(t.pool.regs, e.name)
				}
			case kCell:
				if !pendingOn(t.out[min(from, len(t.out)):], e.name) {
					t.pool.cells = append(t.pool.cells, e.name)
				}
			}
		}
	}
}

// pendingOn reports whether a non-blocking operation of lines names the
// address name.
func pendingOn(lines []string, name string) bool {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	for _, l := range lines {
		if strings.Contains(l, "_nbi(") && word.MatchString(l) {
			return true
		}
	}
	return false
}

// reuseReg takes a freed register for the local cname, if there is one.
// A register the translation took back (pure, expr.go) is not declared
// any more and is dropped.
func (t *translator) reuseReg(cname string) (string, bool) {
	for len(t.pool.regs) > 0 {
		r := t.pool.regs[len(t.pool.regs)-1]
		t.pool.regs = t.pool.regs[:len(t.pool.regs)-1]
		if slices.Contains(t.regs, r) {
			t.shareName(r, cname)
			return r, true
		}
	}
	return "", false
}

// reuseCell takes a freed private cell for the scalar local cname.
func (t *translator) reuseCell(cname string) (string, bool) {
	if len(t.pool.cells) == 0 {
		return "", false
	}
	c := t.pool.cells[len(t.pool.cells)-1]
	t.pool.cells = t.pool.cells[:len(t.pool.cells)-1]
	t.shareName(c, cname)
	return c, true
}

// shareName records that the .pgas name n now also stands for the C
// local cname, for messages and witnesses.
func (t *translator) shareName(n, cname string) {
	old, ok := t.names[n]
	if !ok {
		old = n
	}
	for _, s := range strings.Split(old, "/") {
		if s == cname {
			return
		}
	}
	t.names[n] = old + "/" + cname
}
