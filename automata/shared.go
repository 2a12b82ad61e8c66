package automata

// Searching for several goals at once. A system may stand for many
// automata explored together (cycles' shared exploration carries every
// cycle type through one pass over their common states); finding one
// accepting state then settles only some of its goals, and the search has
// to go on. Options.OnAccept asks for that: every accepting state found is
// reported with its path, and expanded like any other state, until
// OnAccept says the goals are all settled.
//
// Such a system may also drop settled goals from the successors it emits
// from then on, so it cannot be asked afterwards which transition led
// from one stored state to the next (rebuild relies on that). The path is
// therefore given as states only, and the caller explains its steps with
// its own knowledge of the goal that accepted.
//
// The Result of such a search: Unknown when a budget or the context ended
// it before OnAccept asked to stop (the goals reported so far stay
// settled), NonEmpty when at least one accepting state was reported
// (Path is nil), Empty otherwise.

// acceptStop is the stop reason for OnAccept's request, which is not a
// budget.
const acceptStop = "all goals settled"

// statePath copies the states from an initial state to state i along the
// parent links: a shortest path under BreadthFirst, the tree path under
// DepthFirst.
func statePath(st *store, i int) []State {
	idx := st.path(i)
	path := make([]State, len(idx))
	for k, j := range idx {
		path[k] = append(State(nil), st.state(j)...)
	}
	return path
}
