package cycles

import (
	"context"

	"pgasrob/automata"
	"pgasrob/normalform"
)

// WithoutHelper returns opt with the shared exploration's per-type helper
// turned off, so that a test compares the shared search alone with the
// per-type search.
func WithoutHelper(opt Options) Options {
	opt.noHelper = true
	return opt
}

// RuntimeCheck runs the run-time error check of Decide alone, so that a
// test compares it with and without the partial-order reduction.
func RuntimeCheck(y *normalform.Y, opt Options) (*RuntimeError, automata.Stats, string) {
	return findRuntimeError(context.Background(), y, opt, automata.DefaultMaxBytes)
}

// ExamplePrograms compiles every program of examples/.
var ExamplePrograms = examplePrograms
