package cycles

import (
	"testing"

	"github.com/pgasrob/pgasrob/automata/pool"
)

// TestFrontierWorkers: a search takes only the slots that are free and at
// most spare of them, gives them back, and leaves an explicit
// Options.Workers alone.
func TestFrontierWorkers(t *testing.T) {
	sd := &typeSearch{jobs: 4, slots: pool.NewSlots(4)}
	sd.slots.TryTake() // the search's own slot
	sd.slots.TryTake() // another search's (or the portfolio's oracle's)
	opt, extra := sd.frontierWorkers(5)
	if opt.Workers != 3 || extra != 2 || sd.slots.Free() != 0 {
		t.Fatalf("spare 5, 2 free slots: %d workers, %d taken, %d left; want 3, 2, 0", opt.Workers, extra, sd.slots.Free())
	}
	sd.slots.Give(extra)
	if opt, extra = sd.frontierWorkers(1); opt.Workers != 2 || extra != 1 || sd.slots.Free() != 1 {
		t.Fatalf("spare 1: %d workers, %d taken, %d left; want 2, 1, 1", opt.Workers, extra, sd.slots.Free())
	}
	sd.slots.Give(extra)
	if opt, extra = sd.frontierWorkers(0); opt.Workers != 1 || extra != 0 {
		t.Fatalf("no spare: %d workers, %d taken", opt.Workers, extra)
	}
	sd.opt.Workers = 5
	if opt, extra = sd.frontierWorkers(2); opt.Workers != 5 || extra != 0 || sd.slots.Free() != 2 {
		t.Fatalf("explicit Workers: %d workers, %d taken", opt.Workers, extra)
	}
}
