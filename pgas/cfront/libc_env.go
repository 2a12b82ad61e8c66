// getenv: whether an environment variable is set. The environment of a
// run is not known when translating, so each PE's answer for each name
// is a nondeterministic choice, made at its first getenv of that name and
// kept for the rest of the run: a verdict holds for every environment
// (the launcher may give the PEs different ones). Only whether the result
// is NULL is modelled; the string itself is refused.

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// Values of a getenv register: not asked yet, unset, set.
const (
	envUnasked = 0
	envUnset   = 1
	envSet     = 2
)

// getenv is a call of getenv anywhere but where envTest takes it.
func (t *translator) getenv(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.refuse(x, "getenv used other than compared with NULL: the environment of the run is not known to the translation, only whether a variable is set is modelled (give a value as a constant, or as an argument with --args)")
	return ""
}

// envTest translates getenv("NAME") as a condition, and compared with
// NULL by == or !=: the result is 1 when the variable is set (or, for ==,
// unset), 0 otherwise.
func (t *translator) envTest(e cc.ExpressionNode) (string, bool) {
	if isGetenv(e) {
		return t.envSet(unparen(e).(*cc.PostfixExpression)), true
	}
	x, ok := e.(*cc.EqualityExpression)
	if !ok || x.EqualityExpression == nil {
		return "", false
	}
	a, b := cc.ExpressionNode(x.EqualityExpression), cc.ExpressionNode(x.RelationalExpression)
	if isNull(a) {
		a, b = b, a
	}
	if !isGetenv(a) || !isNull(b) {
		return "", false
	}
	v := t.envSet(unparen(a).(*cc.PostfixExpression))
	if x.Token.SrcStr() == "==" {
		return "(!" + v + ")", true
	}
	return v, true
}

// envSet is 1 when the variable getenv names is set for this PE: at the
// first call for that name, a nondeterministic choice, kept in a register.
func (t *translator) envSet(x *cc.PostfixExpression) string {
	var args []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		args = append(args, l.AssignmentExpression)
	}
	t.arity(x, "getenv", args, 1)
	lit, ok := stringLiteral(args[0])
	if !ok {
		t.refuse(args[0], "getenv of a name that is not a string literal")
	}
	known, unset, set := t.label(), t.label(), t.label()
	t.constant(x, envSet)
	if t.frame().fn == "main" && t.once(x) && t.envCalls(lit) == 1 {
		// the only question for this name, asked once: the answer
		// needs no register that outlives the statement
		v := t.temp()
		t.emit("goto %s, %s", unset, set)
		t.place(unset)
		t.emit("%s <- 0; goto %s", v, known)
		t.place(set)
		t.emit("%s <- 1", v)
		t.place(known)
		return v
	}
	r := t.libRegister(x, "env_"+asciiWord(lit), envUnasked)
	t.names[r.name] = fmt.Sprintf("(getenv %q)", lit)
	t.emit("if %s != %d goto %s", r.name, envUnasked, known)
	t.emit("goto %s, %s", unset, set)
	t.place(unset)
	t.emit("%s <- %d; goto %s", r.name, envUnset, known)
	t.place(set)
	t.emit("%s <- %d", r.name, envSet)
	t.place(known)
	return fmt.Sprintf("(%s == %d)", r.name, envSet)
}

// envCalls counts the calls getenv(lit) in the functions of the file.
func (t *translator) envCalls(lit string) int {
	n := 0
	for _, fd := range t.funcs {
		walk(fd, func(c cc.Node) bool {
			if e, ok := c.(cc.ExpressionNode); ok && isGetenv(e) {
				x := unparen(e).(*cc.PostfixExpression)
				if x.ArgumentExpressionList == nil {
					n++ // refused at its call
				} else if s, ok := stringLiteral(x.ArgumentExpressionList.AssignmentExpression); !ok || s == lit {
					n++
				}
				return false
			}
			return true
		})
	}
	return n
}

// isGetenv reports whether e is a call of getenv.
func isGetenv(e cc.ExpressionNode) bool { return isCallOf(e, "getenv") }

func isCallOf(e cc.ExpressionNode, name string) bool {
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionCall {
		return false
	}
	p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
	return ok && p.Case == cc.PrimaryExpressionIdent && p.Token.SrcStr() == name
}

// stringLiteral is the text of a string literal argument.
func stringLiteral(e cc.ExpressionNode) (string, bool) {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionString {
		return "", false
	}
	s, ok := p.Value().(cc.StringValue)
	if !ok {
		return "", false
	}
	return strings.TrimSuffix(string(s), "\x00"), true
}

// asciiWord spells s with the letters of .pgas names.
func asciiWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
