package cfront

import "modernc.org/cc/v4"

// assignedValue is the value of the right side of lhs = rhs. A register
// local declared without an initialiser whose one write is this
// assignment of a call inherits the sentinel of a SIZE_MAX result, as an
// initialised one does (initValue): `size_t i; … i = shmem_test_any(…);
// if (i != SIZE_MAX)` in a loop.
func (t *translator) assignedValue(x *cc.AssignmentExpression, lv lvalue) string {
	p, ok := unparen(x.UnaryExpression).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent || lv.reg == "" {
		return t.value(x.AssignmentExpression)
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok || d.WriteCount() != 1 {
		return t.value(x.AssignmentExpression)
	}
	return t.initValue(d, lv.reg, x.AssignmentExpression)
}
