package cycles

// The slots of a decision (typeSearch.slots, an automata/pool.Slots)
// are one token per search allowed to run: a per-type search holds one
// while it runs, the portfolio takes one away for its oracle, and a
// search that starts when fewer searches wait than slots are free
// borrows the idle ones as frontier workers.

// frontierWorkers returns the options of a per-type search that may use
// up to spare idle slots as frontier workers (automata.Options.Workers),
// and the number of slots it took, to be given back to the slots.
// The slots are taken only if free: the portfolio's oracle, or searches
// still to start, keep theirs. With Options.Workers set, that number is
// used and no slot is taken.
func (sd *typeSearch) frontierWorkers(spare int) (Options, int) {
	opt := sd.opt
	if opt.Workers != 0 {
		return opt, 0
	}
	extra := sd.slots.Borrow(spare)
	opt.Workers = 1 + extra
	return opt, extra
}
