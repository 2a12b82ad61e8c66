// Time: sleep, usleep, nanosleep, clock, time, gettimeofday,
// clock_gettime. The model of memory has no time: waiting orders nothing,
// and nothing a program can observe is ordered by how long it waited. A
// clock's value is not known to the translation: a call whose value is
// used, or that writes the time into an object, is refused (the value
// would be one the model cannot know, read as if it were 0); a call for
// its effect only, with NULL for the result, does nothing the model sees.

package cfront

import "modernc.org/cc/v4"

// timeRoutines is filled in init: the routines call back into the translator.
var timeRoutines map[string]libRoutine

func init() {
	timeRoutines = map[string]libRoutine{
		"sleep": (*translator).sleep, "usleep": (*translator).sleep, "nanosleep": (*translator).clock,
		"clock": (*translator).clock, "time": (*translator).clock, "gettimeofday": (*translator).clock,
		"clock_gettime": (*translator).clock,
	}
}

// sleep(n), usleep(n): the argument is read; nothing is ordered.
func (t *translator) sleep(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 1)
	t.index(args[0])
	return ""
}

// clock and the routines that would write the time into an object: used
// for their effect only, with NULL for every object (nanosleep reads its
// request and writes its remainder, neither of which the model has:
// it is sleep).
func (t *translator) clock(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	if t.wantValue {
		t.refuse(x, "the value of %s: time is not in the model (a value that depends on time would be a guess)", name)
	}
	for i, a := range args {
		// clock_gettime's clock id is read; every pointer argument must
		// be NULL: a time written into an object would be a value the
		// model cannot know, read later as if it were 0
		if isPointer(a.Type()) && !isNull(a) && name != "nanosleep" {
			t.refuse(a, "%s writing the time into an object: time is not in the model (pass NULL, or leave timing out of the checked program)", name)
		}
		if !a.Pure() || !isPointer(a.Type()) && i > 0 {
			t.refuse(a, "an argument of %s with side effects", name)
		}
		if !isPointer(a.Type()) {
			t.index(a)
		}
	}
	return ""
}
