// Time: sleep, usleep, nanosleep, clock, time, gettimeofday,
// clock_gettime. The model of memory has no time: waiting orders nothing,
// and nothing a program can observe is ordered by how long it waited. A
// clock's value is not known to the translation: a call whose value is
// used is refused (a program that measures time and prints it should read
// the clock in a function of its own outside the checked file, or not at
// all); a call for its effect only, with NULL or the address of a private
// object for the result, does nothing the model sees.

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

// clock and the routines that write the time into an object: used for
// their effect only. The object written (a struct timeval, a time_t) is
// one the translation does not model, which is why its later reads are
// refused where they happen; here only the call is accepted.
func (t *translator) clock(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	if t.wantValue {
		t.refuse(x, "the value of %s: time is not in the model (a value that depends on time would be a guess)", name)
	}
	for _, a := range args {
		if !a.Pure() {
			t.refuse(a, "an argument of %s with side effects", name)
		}
	}
	return ""
}
