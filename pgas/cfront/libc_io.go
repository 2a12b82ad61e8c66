// Printing: printf, fprintf to stdout or stderr, puts, putchar, fflush,
// perror. Output is no memory event of the model: a call reads its integer
// arguments (each load of an object of the program is an event, in
// argument order) and orders nothing.

package cfront

import (
	"modernc.org/cc/v4"
)

// ioRoutines is filled in init: the routines call back into the translator.
var ioRoutines map[string]libRoutine

func init() {
	ioRoutines = map[string]libRoutine{
		"printf":  (*translator).printf,
		"fprintf": (*translator).printf,
		"puts":    (*translator).printText,
		"fputs":   (*translator).printText,
		"perror":  (*translator).printText,
		"putchar": (*translator).printText,
		"fputc":   (*translator).printText,
		"putc":    (*translator).printText,
		"fflush":  (*translator).printText,
		"setbuf":  (*translator).buffering,
		"setvbuf": (*translator).buffering,
		"sprintf": refuseIO, "snprintf": refuseIO, "fopen": refuseIO, "fclose": (*translator).fclose, // libc_file.go
		"scanf": refuseIO, "fscanf": refuseIO,
	}
}

func refuseIO(t *translator, x *cc.PostfixExpression, name string, _ []cc.ExpressionNode) string {
	t.refuse(x, "%s: files, input and formatting into memory are outside the subset (printf and fprintf to stdout or stderr are in it)", name)
	return ""
}

// stream checks a FILE * argument: stdout or stderr (NULL too for fflush,
// which flushes every stream).
func (t *translator) stream(name string, e cc.ExpressionNode, null bool) {
	if p, ok := unparen(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		if s := p.Token.SrcStr(); s == "stdout" || s == "stderr" {
			if d, ok := p.ResolvedTo().(*cc.Declarator); ok && ours(d.Position().Filename) {
				return
			}
		}
	}
	if null && isNull(e) {
		return
	}
	t.refuse(e, "%s on a stream other than stdout or stderr: files are outside the subset", name)
}

// printf is printf(format, ...) and fprintf(stream, format, ...): the
// format must be a string literal, whose conversions say what each
// argument is.
func (t *translator) printf(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	if name == "fprintf" {
		if len(args) == 0 {
			t.refuse(x, "fprintf without a stream")
		}
		t.stream(name, args[0], false)
		args = args[1:]
	}
	if len(args) == 0 {
		t.refuse(x, "%s without a format", name)
	}
	format, ok := stringConst(args[0])
	if !ok {
		t.refuse(args[0], "%s with a format that is not a string literal: the translation reads the format to know what each argument is", name)
	}
	convs, err := conversions(format)
	if err != "" {
		t.refuse(args[0], "%s format: %s", name, err)
	}
	args = args[1:]
	if len(convs) != len(args) {
		t.refuse(x, "%s: the format has %d conversions for %d arguments", name, len(convs), len(args))
	}
	for i, a := range args {
		t.printArg(a, convs[i])
	}
	return ""
}

// printArg evaluates one printed argument: an integer is read (its loads
// happen; the value goes to the output, not to memory), a string must be
// a constant of the translation (the characters of an object would be
// loads in an order printf does not fix), a pointer printed with %p reads
// nothing.
func (t *translator) printArg(a cc.ExpressionNode, conv byte) {
	switch conv {
	case 'd', 'i', 'u', 'x', 'X', 'o', 'c':
		if !cc.IsIntegerType(a.Type()) {
			t.refuse(a, "%%%c of a %s", conv, a.Type())
		}
		t.index(a)
	case 's':
		if isOptarg(a) {
			return // a word of the command line (or NULL, which glibc prints as "(null)"): nothing of memory
		}
		if p := t.strOf(a); p != nil {
			t.strPrint(p) // libc_strptr.go
			return
		}
		if _, ok := t.stringOf(a); !ok {
			t.refuse(a, "%%s of a string that is not a constant of the program (a string literal or an element of argv): its characters would be loads in no fixed order")
		}
	case 'p':
		if !isPointer(a.Type()) || !a.Pure() {
			t.refuse(a, "%%p of an expression with side effects or of a non-pointer")
		}
	default:
		t.refuse(a, "%%%c conversion (floating point is outside the subset)", conv)
	}
}

// conversions lists the conversion letters of a printf format, one per
// argument (a * width or precision is an int argument, 'd'); it returns an
// error text for %n and for what it does not know.
func conversions(f string) ([]byte, string) {
	var out []byte
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for ; i < len(f); i++ {
			c := f[i]
			switch {
			case c == '*':
				out = append(out, 'd')
			case c == '-' || c == '+' || c == ' ' || c == '#' || c == '.' || c >= '0' && c <= '9':
			case c == 'h' || c == 'l' || c == 'j' || c == 'z' || c == 't' || c == 'L' || c == 'q':
			case c == 'n':
				return nil, "%n stores into memory, which printing in the subset never does"
			case c == 'f' || c == 'F' || c == 'e' || c == 'E' || c == 'g' || c == 'G' || c == 'a' || c == 'A':
				return nil, "%" + string(c) + " prints a floating-point value (floating point is outside the subset)"
			case c == 'd' || c == 'i' || c == 'u' || c == 'x' || c == 'X' || c == 'o' || c == 'c' || c == 's' || c == 'p':
				out = append(out, c)
				goto next
			default:
				return nil, "unknown conversion %" + string(c)
			}
		}
		return nil, "the format ends inside a conversion"
	next:
	}
	return out, ""
}

// printText is puts(s), fputs(s, stream), perror(s), putchar(c),
// fputc(c, stream), putc(c, stream) and fflush(stream).
func (t *translator) printText(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	want := map[string]int{"puts": 1, "perror": 1, "putchar": 1, "fflush": 1, "fputs": 2, "fputc": 2, "putc": 2}[name]
	t.arity(x, name, args, want)
	switch name {
	case "fflush":
		t.stream(name, args[0], true)
		return ""
	case "fputs", "fputc", "putc":
		t.stream(name, args[1], false)
	}
	switch name {
	case "putchar", "fputc", "putc":
		t.index(args[0])
	default:
		if _, ok := t.stringOf(args[0]); !ok && !(name == "perror" && isNull(args[0])) {
			t.refuse(args[0], "%s of a string that is not a constant of the program", name)
		}
	}
	return ""
}

// buffering is setbuf(stream, NULL) and setvbuf(stream, NULL, mode, n) on
// stdout or stderr: how output is buffered, which the model does not see.
func (t *translator) buffering(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	want := map[string]int{"setbuf": 2, "setvbuf": 4}[name]
	t.arity(x, name, args, want)
	t.stream(name, args[0], false)
	if !isNull(args[1]) {
		t.refuse(args[1], "%s with a buffer of the program: only NULL is in the subset", name)
	}
	for _, a := range args[2:] {
		t.index(a)
	}
	return ""
}
