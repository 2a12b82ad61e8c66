package oracle

import (
	"fmt"
	"slices"

	"github.com/pgasrob/pgasrob/pgas"
)

// Certify replays events in X(p, n), step by step, and checks that
// events i and j race in that computation by the definition: it is how
// the race procedure's witnesses are checked before they are shown.
func Certify(p *pgas.Program, n int, events []pgas.Event, i, j int) error {
	m := pgas.NewMachine(p, n)
	s := m.Initial()
	x := &explorer{p: p, m: m}
	for k := 0; k < len(events); {
		steps, _ := m.Steps(s)
		found := false
		for _, st := range steps {
			if k+len(st.Events) <= len(events) && slices.Equal(st.Events, events[k:k+len(st.Events)]) {
				x.push(s, st)
				s, k, found = st.Next, k+len(st.Events), true
				break
			}
		}
		if !found {
			return fmt.Errorf("event %d (%v) is not a step of X after the events before it", k, events[k])
		}
	}
	if i < 0 || j <= i || j >= len(events) {
		return fmt.Errorf("race pair (%d, %d) outside the computation of %d events", i, j, len(events))
	}
	g := build(p, x.path)
	for _, r := range g.races() {
		if r == [2]int{i, j} {
			return nil
		}
	}
	return fmt.Errorf("events %d and %d do not race in the computation (ordered by api_hb, or no conflict)", i, j)
}
