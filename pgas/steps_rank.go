package pgas

// RankSteps is the part of Steps made of rank r's own commands (no
// barrier, no pop), in the same order, with the errors of those commands.
// A search that follows one rank's steps alone (a persistent set) needs
// only these: the successors of the other steps are not built.
func (m *Machine) RankSteps(s *XState, r int) (steps []Step, errs []*CmdError) {
	for _, t := range m.p.Out[s.st[r-1]] {
		if m.p.Trans[t].Cmd.Op == OpBarrier {
			continue
		}
		next, evs, err := m.command(s, r, t)
		switch {
		case err == nil:
			steps = append(steps, Step{Move{Kind: MoveCmd, Rank: r, Trans: t}, next, evs, next.takeWrap()})
		case err != errBlocked:
			errs = append(errs, &CmdError{Rank: r, Trans: t, Err: err})
		}
	}
	return steps, errs
}
