// The model of the C library: each routine of our headers (include/)
// with its exact meaning, or a refusal by name. One file per family:
// libc_io.go (printing), libc_mem.go (memset, memcpy, memcmp),
// libc_args.go (argc, argv, atoi, getopt), libc_time.go (clocks, sleep).

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// library translates a call of a routine we know: OpenSHMEM, assert,
// abort, exit, and the C library families. Anything else is refused by
// name.
func (t *translator) library(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	if v, ok := t.heapCall(x, name, args); ok { // heap.go
		return v
	}
	if v, ok := t.libc(x, name, args); ok {
		return v
	}
	switch name {
	case "__cfront_assert":
		t.branch(args[0], false, t.end)
		return ""
	case "abort", "exit", "_Exit", "shmem_global_exit":
		// The PE stops: the rest of its program never runs. For
		// shmem_global_exit the others are told to stop too, with no
		// synchronisation (OpenSHMEM 1.6: "there is no implied
		// synchronization"): each may still run any finite number of
		// steps, so letting them run on gives exactly the computations
		// of the real program, every one a prefix of a run of the model
		// and every finite run of the model one of them.
		for _, a := range args {
			t.index(a)
		}
		t.emit("goto %s", t.end)
		return ""
	case "__cfront_float":
		t.refuse(x, "an OpenSHMEM routine on a floating-point object: floating point is outside the subset")
	case "fabs", "sqrt", "pow", "ceil", "floor", "log", "log2", "exp", "sin", "cos":
		t.refuse(x, "%s: floating point is outside the subset", name)
	}
	if name == "fork" || name == "wait" || name == "waitpid" {
		t.refuse(x, "%s: processes other than the PEs are not modelled", name)
	}
	if strings.HasPrefix(name, "pthread_") {
		t.refuse(x, "%s: POSIX threads are not modelled (each PE is one thread of control); remove the threads, or check each thread's code as a PE", name)
	}
	if !strings.HasPrefix(name, "shmem_") {
		t.refuse(x, "call of %s, which is neither a function of this file nor in the subset (docs/shmem.md lists the C library routines it knows)", name)
	}
	return t.shmem(x, name, args)
}

// libc dispatches to the families of the C library; ok is false for a
// routine none of them knows.
func (t *translator) libc(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) (string, bool) {
	if f, ok := ioRoutines[name]; ok {
		return f(t, x, name, args), true
	}
	if f, ok := memRoutines[name]; ok {
		return f(t, x, name, args), true
	}
	if f, ok := argRoutines[name]; ok {
		return f(t, x, name, args), true
	}
	if f, ok := timeRoutines[name]; ok {
		return f(t, x, name, args), true
	}
	return "", false
}

type libRoutine func(t *translator, x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string
