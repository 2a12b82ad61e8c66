// Teams made by shmem_team_split_strided from SHMEM_TEAM_WORLD with a
// triplet that is constant once N is known. Membership and team-relative
// PE numbers are then functions of the PE the translation computes:
// shmem_team_my_pe, shmem_team_n_pes, shmem_team_translate_pe (to and from
// SHMEM_TEAM_WORLD), the comparison of the handle with
// SHMEM_TEAM_INVALID, and shmem_team_destroy; shmem_team_sync and
// shmem_sync on it are a barrier over its members (api_team_subset.go).
// Its collectives and contexts on it are refused by name.
//
// The split itself synchronises nothing in the model. OpenSHMEM 1.6 calls
// team creation collective and orders the creations of the PEs, but
// promises no barrier ("Upon completion of a team creation operation, the
// parent and any resulting child teams will be immediately usable …
// without any intervening synchronization"), so an implementation may
// return before the other PEs call it: the computations without a
// synchronisation are the ones every implementation allows.

package cfront

import (
	"fmt"

	"modernc.org/cc/v4"
)

// stridedTeam is a shmem_team_t local set by shmem_team_split_strided.
type stridedTeam struct {
	set                 bool
	start, stride, size int64
	valid               bool
}

// member is the .pgas condition that the calling PE is in the team.
func (s *stridedTeam) member() string {
	if !s.valid {
		return "0"
	}
	last := s.start + s.stride*(s.size-1)
	if s.stride == 0 {
		return fmt.Sprintf("(N > %d && (rank - 1) == %d)", last, s.start)
	}
	return fmt.Sprintf("(N > %d && (rank - 1) >= %d && (rank - 1) <= %d && ((rank - 1) - %d) %% %d == 0)", last, s.start, last, s.start, s.stride)
}

// myPE is shmem_team_my_pe: the calling PE's number in the team, -1
// outside it.
func (s *stridedTeam) myPE() string {
	return fmt.Sprintf("(%s * ((rank - 1 - %d) / %d + 1) - 1)", s.member(), s.start, max(s.stride, 1))
}

// nPEs is shmem_team_n_pes: the team's size, -1 outside it.
func (s *stridedTeam) nPEs() string { return fmt.Sprintf("(%s * %d - 1)", s.member(), s.size+1) }

// toWorld is the PE number of team member p (a .pgas expression), -1 when
// p is no member's number.
func (s *stridedTeam) toWorld(p string) string {
	if !s.valid {
		return "(-1)"
	}
	last := s.start + s.stride*(s.size-1)
	return fmt.Sprintf("((N > %d && %s >= 0 && %s < %d) * (%d + %d * %s + 1) - 1)", last, p, p, s.size, s.start, s.stride, p)
}

// fromWorld is the team number of PE p, -1 when p is not in the team.
func (s *stridedTeam) fromWorld(p string) string {
	return fmt.Sprintf("(%s * ((%s - %d) / %d + 1) - 1)", replaceRank(s.member(), p), p, s.start, max(s.stride, 1))
}

// full reports whether the team is every PE of n.
func (s *stridedTeam) full(n int) bool {
	return s.valid && s.start == 0 && (s.stride == 1 || n == 1) && s.size == int64(n)
}

// stridedTeamObject declares a shmem_team_t local with no initialiser or
// SHMEM_TEAM_INVALID, for split_strided to set.
func (t *translator) stridedTeamObject(d *cc.Declarator, ty cc.Type, init *cc.Initializer) bool {
	if ty.Kind() != cc.Ptr || d.IsStatic() || len(t.frames) == 0 || d.WriteCount() > 1 {
		return false
	}
	if init != nil && (init.Case != cc.InitializerExpr || !isTeamInvalid(init.AssignmentExpression)) {
		return false
	}
	if init == nil && d.WriteCount() > 0 {
		return false
	}
	if t.stridedTeams == nil {
		t.stridedTeams = map[*cc.Declarator]*stridedTeam{}
	}
	t.stridedTeams[d] = &stridedTeam{}
	return true
}

func isTeamInvalid(e cc.ExpressionNode) bool {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	return ok && d != nil && d.Name() == "__cfront_team_invalid"
}

// stridedOf is the strided team e names, or nil.
func (t *translator) stridedOf(e cc.ExpressionNode) *stridedTeam {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return nil
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok {
		return nil
	}
	return t.stridedTeams[d]
}

// stridedTeamCall translates the routines on strided teams; ok is false
// when no argument is one (team handles the predefined teams).
func (t *translator) stridedTeamCall(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) (string, bool) {
	if name == "shmem_team_split_strided" {
		return t.splitStrided(x, name, args), true
	}
	var s *stridedTeam
	for _, a := range args {
		if s = t.stridedOf(a); s != nil {
			break
		}
	}
	if s == nil {
		return "", false
	}
	if !s.set {
		t.refuse(x, "%s of a team before shmem_team_split_strided has set it", name)
	}
	switch name {
	case "shmem_team_my_pe", "shmem_team_n_pes":
		t.arity(x, name, args, 1)
		t.constant(x, -1)
		if name == "shmem_team_n_pes" {
			t.constant(x, s.size)
			return s.nPEs(), true
		}
		return s.myPE(), true
	case "shmem_team_translate_pe":
		t.arity(x, name, args, 3)
		return t.translateStrided(x, args), true
	case "shmem_team_destroy":
		t.arity(x, name, args, 1)
		return "", true
	case "shmem_team_sync", "shmem_sync":
		t.arity(x, name, args, 1)
		t.stridedSync(x, name, s) // api_team_subset.go
		return "0", true
	}
	t.refuse(x, "%s on a team of part of the PEs: only shmem_team_sync, shmem_sync, team_my_pe, team_n_pes, team_translate_pe and the comparison with SHMEM_TEAM_INVALID are in the subset (its collectives and contexts are not)", name)
	return "", false
}

// splitStrided is shmem_team_split_strided(SHMEM_TEAM_WORLD, start,
// stride, size, config, mask, &team) with config NULL, run once.
func (t *translator) splitStrided(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	t.arity(x, name, args, 7)
	if !predefTeam(args[0]) || !t.isWorld(args[0]) {
		t.refuse(args[0], "%s of a parent team other than SHMEM_TEAM_WORLD", name)
	}
	var v [3]int64
	for i := range v {
		k, ok := t.nConst(args[1+i])
		if !ok {
			t.refuse(args[1+i], "the triplet of %s: only constants (once N is known) are in the subset", name)
		}
		v[i] = k
	}
	if !isNull(args[4]) && !t.nullConfig(args[4]) {
		t.refuse(args[4], "the config argument of %s: only NULL is in the subset", name)
	}
	t.index(args[5])
	var s *stridedTeam
	if u, ok := unparen(args[6]).(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		s = t.stridedOf(u.CastExpression)
	}
	if s == nil {
		t.refuse(args[6], "the new team of %s must be &team, a shmem_team_t local declared without initialiser (or with SHMEM_TEAM_INVALID) and set by nothing else", name)
	}
	if s.set || !t.once(x) {
		t.refuse(x, "%s run more than once for one team (in a loop, a helper called twice, or a second split): each run would make a new team", name)
	}
	s.set, s.start, s.stride, s.size = true, v[0], v[1], v[2]
	if s.stride < 0 {
		t.refuse(args[2], "%s with a negative stride", name)
	}
	last := s.start + s.stride*(s.size-1)
	// valid when the last member is a PE: N > last, which member()
	// tests, so that the translation does not need N
	s.valid = s.size >= 1 && s.start >= 0 && (s.stride != 0 || s.size == 1)
	if s.valid {
		return fmt.Sprintf("(N <= %d)", last)
	}
	return "1" // an invalid triplet: SHMEM_TEAM_INVALID and a nonzero result on every PE
}

func (t *translator) isWorld(e cc.ExpressionNode) bool {
	p, _ := unparen(e).(*cc.PrimaryExpression)
	d, _ := p.ResolvedTo().(*cc.Declarator)
	return d != nil && d.Name() == "__cfront_team_world"
}

// translateStrided is shmem_team_translate_pe between a strided team and
// SHMEM_TEAM_WORLD, either way: -1 for a PE number outside the team.
func (t *translator) translateStrided(x *cc.PostfixExpression, args []cc.ExpressionNode) string {
	from, to := t.stridedOf(args[0]), t.stridedOf(args[2])
	p := t.value(args[1])
	t.constant(x, -1)
	switch {
	case from != nil && to == nil && t.isWorldArg(args[2]):
		return from.toWorld(p)
	case to != nil && from == nil && t.isWorldArg(args[0]):
		return to.fromWorld(p)
	}
	t.refuse(x, "shmem_team_translate_pe between two teams of part of the PEs: only to or from SHMEM_TEAM_WORLD is in the subset")
	return ""
}

func (t *translator) isWorldArg(e cc.ExpressionNode) bool { return predefTeam(e) && t.isWorld(e) }

// replaceRank writes cond, a condition on the calling PE (rank - 1), for
// the PE number p.
func replaceRank(cond, p string) string {
	return rankWord.ReplaceAllString(cond, "("+p+" + 1)")
}

// teamTest translates team == SHMEM_TEAM_INVALID and != for a strided
// team: whether the calling PE is outside (inside) it.
func (t *translator) teamTest(e cc.ExpressionNode) (string, bool) {
	x, ok := e.(*cc.EqualityExpression)
	if !ok || x.EqualityExpression == nil {
		return "", false
	}
	a, b := cc.ExpressionNode(x.EqualityExpression), cc.ExpressionNode(x.RelationalExpression)
	if isTeamInvalid(a) {
		a, b = b, a
	}
	s := t.stridedOf(a)
	if s == nil || !isTeamInvalid(b) {
		return "", false
	}
	if !s.set {
		t.refuse(x, "a team compared before shmem_team_split_strided has set it")
	}
	if x.Token.SrcStr() == "==" {
		return "(!" + s.member() + ")", true
	}
	return s.member(), true
}

// nullConfig reports whether e is a shmem_team_config_t * local that is
// only ever NULL (configVar).
func (t *translator) nullConfig(e cc.ExpressionNode) bool {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	return ok && t.configs[d]
}

func isConfigPtr(ty cc.Type) bool {
	p, ok := ty.(*cc.PointerType)
	if !ok {
		return false
	}
	td := p.Elem().Typedef()
	return td != nil && td.Name() == "shmem_team_config_t"
}

// configVar declares a shmem_team_config_t * local: accepted when it is
// NULL and every assignment to it is NULL (checked at each, assignConfig).
func (t *translator) configVar(d *cc.Declarator, init *cc.Initializer, static bool) {
	if static || d.AddressTaken() || init != nil && (init.Case != cc.InitializerExpr || !isNull(init.AssignmentExpression)) {
		t.refuse(d, "pointer %s to shmem_team_config_t: only a local that is always NULL is in the subset (team configurations are not)", d.Name())
	}
	if t.configs == nil {
		t.configs = map[*cc.Declarator]bool{}
	}
	t.configs[d] = true
}

// assignConfig is an assignment to such a local: NULL only.
func (t *translator) assignConfig(x *cc.AssignmentExpression) bool {
	if !t.nullConfig(x.UnaryExpression) {
		return false
	}
	if x.Case != cc.AssignmentExpressionAssign || !isNull(x.AssignmentExpression) {
		t.refuse(x, "a shmem_team_config_t pointer set to other than NULL: team configurations are not in the subset")
	}
	return true
}
