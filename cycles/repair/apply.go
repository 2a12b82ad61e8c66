package repair

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pgasrob/pgasrob/pgas"
)

// edited is the input source with a set of insertions, and the way back
// from its positions to the input's.
type edited struct {
	src  []byte
	segs map[int][]seg // by line of the edited source
}

// seg says where a piece of an edited line came from: copied from the
// input at orig, or inserted (then orig is the statement or operation it
// belongs to).
type seg struct {
	col, n   int
	orig     pgas.Pos
	inserted bool
}

// origin maps a position of the edited source to the input's; inserted
// is true for text the repair added (a wait maps to the statement it
// precedes).
func (e *edited) origin(pos pgas.Pos) (orig pgas.Pos, inserted bool, ok bool) {
	segs := e.segs[pos.Line]
	for _, s := range segs {
		if pos.Col >= s.col && pos.Col < s.col+s.n {
			if s.inserted {
				return s.orig, true, true
			}
			return pgas.Pos{Line: s.orig.Line, Col: s.orig.Col + pos.Col - s.col}, false, true
		}
	}
	return pgas.Pos{}, false, false
}

type lineEdit struct {
	col  int
	kind int // 0 insert a statement before, 1 insert text at, 2 replace the keyword, 3 add a line after
	text string
	old  string // kind 2
	orig pgas.Pos
}

// handleNames gives a fresh handle name to each operation that needs one.
func (a *analysis) handleNames(set []Candidate) map[pgas.Pos]string {
	used := map[string]bool{}
	for _, n := range a.p.Addrs {
		used[strings.TrimPrefix(n, "$h.")] = true
	}
	for _, n := range append(append([]string{}, a.p.Regs...), a.p.Queues...) {
		used[n] = true
	}
	names := map[pgas.Pos]string{}
	k := 1
	for _, o := range a.ops {
		if o.handle != "" {
			continue
		}
		for _, c := range set {
			if c.Kind == Wait && c.Op == o.pos {
				for used[fmt.Sprintf("h%d", k)] {
					k++
				}
				names[o.pos] = fmt.Sprintf("h%d", k)
				used[names[o.pos]] = true
				break
			}
		}
	}
	return names
}

// apply writes the input source with the insertions of set.
func (a *analysis) apply(src []byte, set []Candidate) (*edited, error) {
	edits, err := a.edits(src, set)
	if err != nil {
		return nil, err
	}
	return write(src, edits)
}

// edits lists the text edits of set by line of the input.
func (a *analysis) edits(src []byte, set []Candidate) (map[int][]lineEdit, error) {
	names := a.handleNames(set)
	regs, fresh := a.swapRegs(set)
	edits := map[int][]lineEdit{}
	addedHandle := map[pgas.Pos]bool{}
	declared := false
	// A get or put already waits for itself: a wait on the read or write
	// it was made from is subsumed (a handle on it would not compile).
	synced := map[pgas.Pos]bool{}
	for _, c := range set {
		synced[c.Op] = synced[c.Op] || c.Kind == Sync
	}
	for _, c := range set {
		switch c.Kind {
		case Wait:
			o, ok := a.opAt(c.Op)
			if !ok || o.shmem {
				return nil, fmt.Errorf("no operation at %d:%d", c.Op.Line, c.Op.Col)
			}
			if synced[o.pos] {
				continue
			}
			h := o.handle
			if h == "" {
				h = names[o.pos]
				if !addedHandle[o.pos] {
					addedHandle[o.pos] = true
					edits[o.pos.Line] = append(edits[o.pos.Line], lineEdit{col: o.pos.Col + len(o.text), kind: 1, text: " -> " + h, orig: o.pos})
				}
			}
			edits[c.At.Line] = append(edits[c.At.Line], lineEdit{col: c.At.Col, kind: 0, text: "wait " + h, orig: c.At})
		case WaitQ, Fence, Quiet:
			edits[c.At.Line] = append(edits[c.At.Line], lineEdit{col: c.At.Col, kind: 0, text: c.Kind.String() + " " + c.Queue, orig: c.At})
		case Sync:
			o, ok := a.opAt(c.Op)
			if !ok || o.handle != "" || o.shmem {
				return nil, fmt.Errorf("no operation without a handle at %d:%d", c.Op.Line, c.Op.Col)
			}
			edits[o.pos.Line] = append(edits[o.pos.Line], lineEdit{col: o.pos.Col, kind: 2, text: map[string]string{"write": "put", "read": "get"}[o.kw], old: o.kw, orig: o.pos})
		case Blocking:
			o, ok := a.opAt(c.Op)
			if !ok || nbiForms[o.kw] == "" {
				return nil, fmt.Errorf("no non-blocking operation at %d:%d", c.Op.Line, c.Op.Col)
			}
			edits[o.pos.Line] = append(edits[o.pos.Line], lineEdit{col: o.pos.Col, kind: 2, text: nbiForms[o.kw], old: o.kw, orig: o.pos})
		case Atomic:
			o, ok := a.opAt(c.Op)
			if !ok || !swappable[o.kw] {
				return nil, fmt.Errorf("no putval or amo_set at %d:%d", c.Op.Line, c.Op.Col)
			}
			edits[o.pos.Line] = append(edits[o.pos.Line], lineEdit{col: o.pos.Col, kind: 2, text: regs[o.pos] + " <- amo_swap", old: o.kw, orig: o.pos})
			if regs[o.pos] == fresh && !declared {
				declared = true
				line, e, ok := declareReg(src, fresh, o.pos)
				if !ok {
					return nil, fmt.Errorf("no declaration to add register %s to", fresh)
				}
				edits[line] = append(edits[line], e)
			}
		}
	}
	return edits, nil
}

// write applies edits to src, recording where each piece came from.
func write(src []byte, edits map[int][]lineEdit) (*edited, error) {
	lines := strings.SplitAfter(string(src), "\n")
	out := &edited{segs: map[int][]seg{}}
	var b strings.Builder
	newLine := 1
	col := 1 // in the line being written
	emit := func(text string, orig pgas.Pos, inserted bool) {
		if text == "" {
			return
		}
		out.segs[newLine] = append(out.segs[newLine], seg{col: col, n: len(text), orig: orig, inserted: inserted})
		b.WriteString(text)
		col += len(text)
	}
	for i, full := range lines {
		ln := i + 1
		text := strings.TrimSuffix(full, "\n")
		var es, after []lineEdit
		for _, e := range edits[ln] {
			if e.kind == 3 {
				after = append(after, e)
			} else {
				es = append(es, e)
			}
		}
		sort.SliceStable(es, func(x, y int) bool {
			if es[x].col != es[y].col {
				return es[x].col < es[y].col
			}
			return es[x].kind < es[y].kind || es[x].kind == es[y].kind && es[x].text < es[y].text
		})
		c := 1
		for _, e := range es {
			if e.col < c || e.col-1+len(e.old) > len(text) {
				return nil, fmt.Errorf("line %d: an insertion at column %d overlaps another", ln, e.col)
			}
			emit(text[c-1:e.col-1], pgas.Pos{Line: ln, Col: c}, false)
			c = e.col
			switch e.kind {
			case 0:
				prefix := text[:e.col-1]
				indent := prefix
				if strings.TrimSpace(prefix) != "" {
					indent = strings.Repeat(" ", len(prefix))
				}
				emit(e.text, e.orig, true)
				b.WriteString("\n")
				newLine, col = newLine+1, 1
				emit(indent, e.orig, true)
			case 1:
				emit(e.text, e.orig, true)
			case 2:
				if text[e.col-1:e.col-1+len(e.old)] != e.old {
					return nil, fmt.Errorf("line %d: no %q at column %d", ln, e.old, e.col)
				}
				emit(e.text, e.orig, false)
				c += len(e.old)
			}
		}
		emit(text[c-1:], pgas.Pos{Line: ln, Col: c}, false)
		for _, e := range after {
			b.WriteString("\n")
			newLine, col = newLine+1, 1
			emit(e.text, e.orig, true)
		}
		if strings.HasSuffix(full, "\n") {
			b.WriteString("\n")
			newLine, col = newLine+1, 1
		}
	}
	out.src = []byte(b.String())
	return out, nil
}
