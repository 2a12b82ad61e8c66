package prog

import "fmt"

// Model is the relaxed memory model a program is checked against.
type Model int

const (
	TSO Model = iota // one FIFO store buffer per thread
	PSO              // one FIFO buffer per thread and address (the store-atomic framework run unmodified)
)

func (m Model) String() string {
	if m == PSO {
		return "PSO"
	}
	return "TSO"
}

// ParseModel reads "tso" or "pso" (any case).
func ParseModel(s string) (Model, error) {
	switch s {
	case "tso", "TSO":
		return TSO, nil
	case "pso", "PSO":
		return PSO, nil
	}
	return TSO, fmt.Errorf("unknown memory model %q (want tso or pso)", s)
}

// Verdict is the answer to a question about a program: the checker's and
// the oracles'.
type Verdict int

const (
	Robust Verdict = iota
	NotRobust
	Unknown // a budget ran out, or the value domain could not be bounded
)

func (v Verdict) String() string {
	return [...]string{"ROBUST", "NOT ROBUST", "UNKNOWN"}[v]
}
