// The command line and the strings made of it: main's argc and argv are
// constants of the translation (Options.Args, from --args), so atoi of an
// argument, strcmp of two, and a getopt loop are computed exactly.

package cfront

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// argRoutines is filled in init: the routines call back into the translator.
var argRoutines map[string]libRoutine

func init() {
	argRoutines = map[string]libRoutine{
		"atoi": (*translator).atoi, "atol": (*translator).atoi, "atoll": (*translator).atoi,
		"strtol": (*translator).atoi, "strtoll": (*translator).atoi,
		"strtoul": (*translator).atoi, "strtoull": (*translator).atoi,
		"strcmp": (*translator).strcmp, "strncmp": (*translator).strcmp, "strlen": (*translator).strlen,
		"abs": (*translator).abs, "labs": (*translator).abs, "llabs": (*translator).abs,
		"getopt": (*translator).getopt, // libc_getopt.go
		"getenv": (*translator).getenv, "rand": refuseArg, "srand": refuseArg,
	}
}

func refuseArg(t *translator, x *cc.PostfixExpression, name string, _ []cc.ExpressionNode) string {
	t.refuse(x, "%s: the pseudo-random sequence is the C library's; write the values the program needs as constants", name)
	return ""
}

// mainParams binds main's parameters: argc to the number of words of the
// command line (the program's name, then Options.Args), argv to them.
func (t *translator) mainParams(fd *cc.FunctionDefinition) map[*cc.Declarator]*entity {
	ft, ok := fd.Declarator.Type().(*cc.FunctionType)
	if !ok {
		return nil
	}
	params := ft.Parameters()
	if len(params) == 1 && params[0].Type().Kind() == cc.Void || len(params) == 0 {
		return nil
	}
	if len(params) < 2 || !cc.IsIntegerType(params[0].Type()) || params[1].Type().Kind() != cc.Ptr {
		t.refuse(fd.Declarator, "main's parameters: the subset knows int main(void) and int main(int argc, char **argv)")
	}
	if len(params) > 3 {
		t.refuse(fd.Declarator, "main with more than three parameters")
	}
	if len(params) == 3 && params[2].Declarator != nil && (params[2].Declarator.ReadCount() > 0 || params[2].Declarator.AddressTaken()) {
		t.refuse(params[2].Declarator, "main's environment parameter %s is used: the environment is not known to the translation", params[2].Declarator.Name())
	}
	binds := map[*cc.Declarator]*entity{}
	argc, argv := params[0].Declarator, params[1].Declarator
	if argc != nil {
		if argc.WriteCount() > 0 || argc.AddressTaken() {
			t.refuse(argc, "argc is assigned or its address taken: the subset keeps it a constant")
		}
		binds[argc] = &entity{kind: kConst, expr: fmt.Sprint(len(t.argv())), lo: int64(len(t.argv())), loOK: true}
	}
	if argv != nil {
		if argv.WriteCount() > 0 || argv.AddressTaken() {
			t.refuse(argv, "argv is assigned or its address taken: the subset keeps it a constant")
		}
		binds[argv] = &entity{kind: kArgv, name: argv.Name()}
	}
	return binds
}

// argv is the command line main sees.
func (t *translator) argv() []string {
	base := t.file
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return append([]string{base}, t.opt.Args...)
}

// stringConst is the value of a string literal (adjacent literals and
// macros such as PRId64 already joined by cc).
func stringConst(e cc.ExpressionNode) (string, bool) {
	if s, ok := unparen(e).(*cc.PrimaryExpression); ok && s.Case == cc.PrimaryExpressionString {
		if v, ok := s.Value().(cc.StringValue); ok {
			return strings.TrimSuffix(string(v), "\x00"), true
		}
	}
	return "", false
}

// stringOf is the value of a string the translation knows: a literal, or
// argv[k] for a constant k below argc. ok is false for any other. (An
// index known only at run time is argvIndex's: a branch per word.)
func (t *translator) stringOf(e cc.ExpressionNode) (string, bool) {
	if s, ok := stringConst(e); ok {
		return s, true
	}
	if p, ok := unparen(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		if p.Token.SrcStr() == "__func__" {
			return t.frame().fn, true
		}
		if d, ok := p.ResolvedTo().(*cc.Declarator); ok && ours(d.Position().Filename) {
			t.libcObject(p, d) // optarg and the like: refused by name
		}
	}
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionIndex {
		return "", false
	}
	p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return "", false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok {
		return "", false
	}
	if ent := t.lookup(d); ent == nil || ent.kind != kArgv {
		return "", false
	}
	k, ok := constValue(x.ExpressionList)
	words := t.argv()
	if !ok {
		t.refuse(x.ExpressionList, "argv indexed by an expression the translation cannot compute: use a constant index")
	}
	if k < 0 || k >= int64(len(words)) {
		if t.argvCrash {
			// strcmp, atoi... read through argv[argc] (NULL) or past it:
			// the PE stops there, as a crash stops it
			t.emit("goto %s", t.end)
			return "", true
		}
		t.refuse(x, "argv[%d] with argc = %d (the command line is set by --args)", k, len(words))
	}
	return words[k], true
}

// knownString is stringOf, refusing an unknown string for routine name.
func (t *translator) knownString(name string, e cc.ExpressionNode) string {
	t.argvCrash = true
	s, ok := t.stringOf(e)
	t.argvCrash = false
	if !ok {
		t.refuse(e, "%s of a string the translation does not know (a string literal, or argv[k] for a constant k)", name)
	}
	return s
}

// atoi is atoi, atol, atoll and strtol-like routines on a known string,
// computed as the C library does: blanks, a sign, then digits in the
// base (strtol's end pointer must be NULL).
func (t *translator) atoi(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	base := int64(10)
	if strings.HasPrefix(name, "strto") {
		t.arity(x, name, args, 3)
		if !isNull(args[1]) {
			t.refuse(args[1], "%s's end pointer: only NULL is in the subset", name)
		}
		b, ok := constValue(args[2])
		if !ok || b != 0 && (b < 2 || b > 36) {
			t.refuse(args[2], "%s's base: a constant 0 or 2..36", name)
		}
		base = b
	} else {
		t.arity(x, name, args, 1)
	}
	conv := func(s string) string {
		v, ok := parseCInt(s, base)
		if !ok {
			t.refuse(x, "%s: the number is too large for the translation", name)
		}
		if strings.HasPrefix(name, "strtou") && v < 0 {
			t.refuse(x, "%s of a negative number (C wraps it around)", name)
		}
		return t.intConst(x, v)
	}
	if isOptarg(args[0]) {
		return t.optargCases(x, conv)
	}
	if idx, ok := t.argvIndex(args[0]); ok {
		return t.argvCases(idx, conv)
	}
	return conv(t.knownString(name, args[0]))
}

// argvIndex recognises argv[e] for an index e computed at run time (say
// argv[optind++]); it evaluates e and returns its .pgas value.
func (t *translator) argvIndex(e cc.ExpressionNode) (string, bool) {
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionIndex {
		return "", false
	}
	if _, ok := constValue(x.ExpressionList); ok {
		return "", false
	}
	p, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return "", false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok {
		return "", false
	}
	if ent := t.lookup(d); ent == nil || ent.kind != kArgv {
		return "", false
	}
	return t.index(x.ExpressionList), true
}

// argvCases is f(argv[idx]) for an index known only at run time: a branch
// per word of the command line; an index at or beyond argc reads NULL or
// past the array, and the PE stops there (as the crash stops it).
func (t *translator) argvCases(idx string, f func(string) string) string {
	r := t.temp()
	end := t.label()
	var labels []string
	for k := range t.argv() {
		l := t.label()
		labels = append(labels, l)
		t.emit("if %s == %d goto %s", idx, k, l)
	}
	t.emit("goto %s", t.end)
	for k, w := range t.argv() {
		t.place(labels[k])
		t.emit("%s <- %s", r, f(w))
		t.emit("goto %s", end)
	}
	t.place(end)
	return r
}

// parseCInt reads an integer as strtol does; no digits give 0.
func parseCInt(s string, base int64) (int64, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if (base == 0 || base == 16) && len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		base, s = 16, s[2:]
	} else if base == 0 && len(s) > 1 && s[0] == '0' {
		base = 8
	} else if base == 0 {
		base = 10
	}
	var v int64
	for _, c := range s {
		d := int64(36)
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c-'A') + 10
		}
		if d >= base {
			break
		}
		if v > (1<<62)/base {
			return 0, false
		}
		v = v*base + d
	}
	if neg {
		v = -v
	}
	return v, true
}

// intConst is a constant produced by the C library, as a value.
func (t *translator) intConst(n cc.Node, v int64) string {
	if t.novalue == 0 {
		t.constant(n, v)
	}
	if v < 0 {
		return fmt.Sprintf("(%d)", v)
	}
	return fmt.Sprint(v)
}

// strcmp and strncmp of known strings give the sign of the comparison
// (-1, 0, 1: the C library may return any value of that sign, so a
// program that uses more than the sign is not portable anyway).
func (t *translator) strcmp(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	n := int64(-1)
	if name == "strncmp" {
		t.arity(x, name, args, 3)
		k, ok := constValue(args[2])
		if !ok || k < 0 {
			t.refuse(args[2], "strncmp's length: a constant")
		}
		n = k
	} else {
		t.arity(x, name, args, 2)
	}
	cmp := func(a, b string) string {
		if n >= 0 {
			a, b = a[:min(int64(len(a)), n)], b[:min(int64(len(b)), n)]
		}
		return t.intConst(x, int64(strings.Compare(a, b)))
	}
	if isOptarg(args[0]) {
		b := t.knownString(name, args[1])
		return t.optargCases(x, func(a string) string { return cmp(a, b) })
	}
	if idx, ok := t.argvIndex(args[0]); ok {
		b := t.knownString(name, args[1])
		return t.argvCases(idx, func(a string) string { return cmp(a, b) })
	}
	a := t.knownString(name, args[0])
	if idx, ok := t.argvIndex(args[1]); ok {
		return t.argvCases(idx, func(b string) string { return cmp(a, b) })
	}
	return cmp(a, t.knownString(name, args[1]))
}

func (t *translator) strlen(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 1)
	if isOptarg(args[0]) {
		return t.optargCases(x, func(s string) string { return t.intConst(x, int64(len(s))) })
	}
	if idx, ok := t.argvIndex(args[0]); ok {
		return t.argvCases(idx, func(s string) string { return t.intConst(x, int64(len(s))) })
	}
	return t.intConst(x, int64(len(t.knownString(name, args[0]))))
}

// abs is |v|, by a branch (the calculus has no conditional expression).
func (t *translator) abs(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 1)
	v := t.value(args[0])
	r := t.temp()
	done := t.label()
	t.emit("%s <- %s", r, v)
	t.emit("if %s >= 0 goto %s", r, done)
	t.emit("%s <- (-%s)", r, r)
	t.place(done)
	return r
}
