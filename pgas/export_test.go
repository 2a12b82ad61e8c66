package pgas

import "fmt"

// Names for the tests of package pgas_test only: nothing outside the tests
// needs them, so they are not part of the package.

// Classes returns the ↔-classes as lists of event indices.
func (h *HB) Classes() [][]int { return h.classes }

// Certify checks a claimed violation against the definitions: events must
// be a computation of X(p, n) (Replay) whose happens-before relation has a
// cycle between ↔-classes. It returns the relation and a cycle, or an
// error saying which check failed. cycles certifies its witnesses the
// same way (Witness.certify in cycles/witness.go).
func Certify(p *Program, n int, events []Event) (*HB, []HBEdge, error) {
	if _, err := Replay(p, n, events); err != nil {
		return nil, nil, fmt.Errorf("the witness is not a computation of X(P,%d): %w", n, err)
	}
	h := HappensBefore(events)
	cyc := h.Cycle()
	if cyc == nil {
		return h, nil, fmt.Errorf("the witness replays but its happens-before relation has no cycle between ↔-classes")
	}
	return h, cyc, nil
}
