// The switch statement: the controlling value is computed once, compared
// with each case constant in turn (a jump to the first equal one, else to
// default or past the switch), and the body is translated as written, its
// case labels becoming labels, so fall-through and break are C's.

package cfront

import (
	"fmt"

	"modernc.org/cc/v4"
)

// switchStmt translates switch (e) body.
func (t *translator) switchStmt(s *cc.SelectionStatement) {
	old := t.at(s.ExpressionList)
	t.cur.Text = "switch (" + t.cur.Text + ")"
	var labels []*cc.LabeledStatement
	collectCases(s.Statement, &labels)
	f := t.frame()
	if f.cases == nil {
		f.cases = map[*cc.LabeledStatement]string{}
	}
	// the compares follow one another with nothing in between: v, an
	// expression over registers its loads were made into, keeps its value
	v := t.value(s.ExpressionList)
	kv, isConst := constValue(s.ExpressionList) // only its case is a target: the others are dead code (prune.go)
	end := t.label()
	dflt, match := end, ""
	seen := map[int64]bool{}
	for _, l := range labels {
		lab := t.label()
		f.cases[l] = lab
		if l.Case == cc.LabeledStatementDefault {
			dflt = lab
			continue
		}
		k, ok := constValue(l.ConstantExpression)
		if !ok {
			t.refuse(l, "case label that is not an integer constant")
		}
		if ty := s.ExpressionList.Type(); isUnsigned(ty) && t.convNeeded(ty, l.ConstantExpression, nil) {
			k, _ = t.convConst(ty, l.ConstantExpression, nil) // C converts the label to the promoted type (conv.go)
		}
		if seen[k] {
			t.refuse(l, "duplicate case value %d", k)
		}
		seen[k] = true
		if isConst && k == kv {
			match = lab
		} else if !isConst {
			t.emit("if %s == %s goto %s", v, caseConst(k), lab)
		}
	}
	if match != "" {
		dflt = match
	}
	t.emit("goto %s", dflt)
	t.cur = old
	cont := ""
	if len(f.loops) > 0 {
		cont = f.loops[len(f.loops)-1].cont
	}
	f.loops = append(f.loops, loop{brk: end, cont: cont})
	t.statement(s.Statement)
	f.loops = f.loops[:len(f.loops)-1]
	t.place(end)
}

func caseConst(k int64) string {
	if k < 0 {
		return fmt.Sprintf("(%d)", k)
	}
	return fmt.Sprint(k)
}

// collectCases lists the case and default labels of a switch body, in
// order, without entering a nested switch (its labels are its own).
func collectCases(s *cc.Statement, out *[]*cc.LabeledStatement) {
	if s == nil {
		return
	}
	switch s.Case {
	case cc.StatementLabeled:
		l := s.LabeledStatement
		if l.Case != cc.LabeledStatementLabel {
			*out = append(*out, l)
		}
		collectCases(l.Statement, out)
	case cc.StatementCompound:
		for b := s.CompoundStatement.BlockItemList; b != nil; b = b.BlockItemList {
			if b.BlockItem.Case == cc.BlockItemStmt {
				collectCases(b.BlockItem.Statement, out)
			}
		}
	case cc.StatementSelection:
		if s.SelectionStatement.Case != cc.SelectionStatementSwitch {
			collectCases(s.SelectionStatement.Statement, out)
			collectCases(s.SelectionStatement.Statement2, out)
		}
	case cc.StatementIteration:
		collectCases(s.IterationStatement.Statement, out)
	}
}

// caseLabel places the label of a case or default of the enclosing switch.
func (t *translator) caseLabel(ls *cc.LabeledStatement) {
	if ls.Case == cc.LabeledStatementRange {
		t.refuse(ls, "case range (a GNU extension): write one case per value")
	}
	l, ok := t.frame().cases[ls]
	if !ok {
		t.refuse(ls, "case label outside a switch")
	}
	t.place(l)
}
