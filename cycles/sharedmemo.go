package cycles

import "pgasrob/automata/table"

// number returns k's number in t, giving it the next one (and charging
// its entry to the shared tables' memory) when k is new.
func (sh *sharedSystem) number(t *table.Map, k uint64) uint32 {
	id, fresh := t.Number(k)
	if fresh {
		sh.tables += 24
	}
	return id
}
