// The model of the C library: each routine of our headers (include/)
// with its exact meaning, or a refusal by name.

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// library translates a call of a routine we know: OpenSHMEM, assert,
// abort, exit, printf. Anything else is refused by name.
func (t *translator) library(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	if v, ok := t.heapCall(x, name, args); ok { // heap.go
		return v
	}
	switch name {
	case "__cfront_assert":
		t.branch(args[0], false, t.end)
		return ""
	case "abort", "exit":
		for _, a := range args {
			t.value(a)
		}
		t.emit("goto %s", t.end)
		return ""
	case "printf":
		if len(args) == 0 {
			t.refuse(x, "printf without a format")
		}
		for _, a := range args[1:] {
			if !isPointer(a.Type()) {
				t.index(a) // its loads happen; the value is printed, not stored
			}
		}
		return ""
	}
	if !strings.HasPrefix(name, "shmem_") {
		t.refuse(x, "call of %s, which is neither a function of this file nor in the subset", name)
	}
	return t.shmem(x, name, args)
}
