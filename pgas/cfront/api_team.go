// OpenSHMEM teams, barriers and synchronisation, thread levels and
// global exit (docs/shmem.md, "Teams and synchronisation").

package cfront

import (
	"strings"

	"modernc.org/cc/v4"
)

// apiFamilies translates the routines of the families added for the
// whole 1.6 API (teams, collectives, strided transfers, signals, threads,
// global exit); ok is false for the routines of the older families,
// which shmem handles.
func (t *translator) apiFamilies(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) (string, bool) {
	switch name {
	case "shmem_global_exit":
		t.arity(x, name, args, 1)
		return t.globalExit(args[0]), true
	case "shmem_init_thread":
		t.arity(x, name, args, 2)
		return t.initThread(x, args), true
	case "shmem_query_thread":
		t.refuse(x, "shmem_query_thread: the thread level is not modelled (threads are refused; use the level shmem_init_thread returned)")
	case "shmem_team_my_pe", "shmem_team_n_pes", "shmem_team_sync", "shmem_team_translate_pe",
		"shmem_barrier", "shmem_sync", "shmem_sync_deprecated", "shmem_team_split_strided",
		"shmem_team_split_2d", "shmem_team_destroy", "shmem_team_get_config", "shmem_team_create_ctx",
		"shmem_ctx_get_team", "shmem_team_ptr":
		return t.team(x, name, args), true
	case "shmem_ctx_session_start", "shmem_ctx_session_stop":
		return t.session(x, name, args), true // api_session.go
	case "shmem_pcontrol":
		// profiling control: no effect on the program's semantics
		for _, a := range args {
			t.index(a)
		}
		return "", true
	case "shmem_pe_quiet", "shmem_ctx_pe_quiet":
		t.refuse(x, "%s: completing the operations to some PEs only is not expressible (the calculus's quiet completes every operation of the context, which is stronger); use shmem_quiet or shmem_ctx_quiet", name)
	case "shmem_signal_add", "shmem_signal_set", "shmem_ctx_signal_add", "shmem_ctx_signal_set":
		return t.signalUpdate(x, name, args), true
	}
	if op, ok := collectiveOp(name); ok {
		return t.collective(x, name, op, args), true
	}
	return "", false
}

// teamArg checks that e is a team the translation knows: SHMEM_TEAM_WORLD.
// SHMEM_TEAM_SHARED is refused: the specification defines it as the PEs
// for which shmem_ptr gives a pointer, and the translation reads shmem_ptr
// as NULL for every other PE (heap.go), under which SHARED would be the
// PE alone; reading it as every PE would contradict that, and neither
// reading is the machine's (docs/shmem.md, "Teams and synchronisation").
func (t *translator) teamArg(e cc.ExpressionNode) {
	if p, ok := unparen(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		if d, ok := p.ResolvedTo().(*cc.Declarator); ok && d != nil {
			if t.teams[d] {
				return
			}
			switch d.Name() {
			case "__cfront_team_world":
				return
			case "__cfront_team_shared":
				t.refuse(e, sharedRefusal)
			case "__cfront_team_invalid":
				t.refuse(e, "SHMEM_TEAM_INVALID passed to a team routine (the specification leaves it undefined)")
			}
		}
	}
	t.refuse(e, "a team must be SHMEM_TEAM_WORLD or SHMEM_TEAM_SHARED here: a collective on a team of part of the PEs is not in the subset (a team of shmem_team_split_strided is, for its numbers and its syncs)")
}

func (t *translator) team(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	if v, ok := t.stridedTeamCall(x, name, args); ok { // api_team_strided.go
		return v
	}
	switch name {
	case "shmem_team_my_pe", "shmem_team_n_pes":
		t.arity(x, name, args, 1)
		t.teamArg(args[0])
		if name == "shmem_team_my_pe" {
			return "(rank - 1)"
		}
		return "N"
	case "shmem_team_sync":
		t.arity(x, name, args, 1)
		t.teamArg(args[0])
		t.emit("barrier")
		return "0"
	case "shmem_sync":
		if len(args) == 1 {
			t.teamArg(args[0])
			t.emit("barrier")
			return "0"
		}
		t.arity(x, name+" (active set)", args, 4)
		t.activeSetBarrier(x, name, args[0], args[1], args[2]) // api_team_subset.go
		return ""
	case "shmem_sync_deprecated":
		t.arity(x, name, args, 4)
		t.activeSetBarrier(x, name, args[0], args[1], args[2])
		return ""
	case "shmem_barrier":
		t.arity(x, name, args, 4)
		t.emit("quiet %s", t.defctx)
		t.activeSetBarrier(x, name, args[0], args[1], args[2])
		return ""
	case "shmem_team_translate_pe":
		t.arity(x, name, args, 3)
		t.teamArg(args[0])
		t.teamArg(args[2])
		return t.translatePE(args[1])
	case "shmem_team_create_ctx":
		t.arity(x, name, args, 3)
		t.teamArg(args[0])
		t.novalue++
		t.value(args[1])
		t.novalue--
		t.ctxArg(derefAddr(t, args[2]))
		return "0"
	case "shmem_team_destroy":
		t.arity(x, name, args, 1)
		t.teamArg(args[0])
		t.refuse(x, "shmem_team_destroy of a predefined team (the specification leaves it undefined)")
	}
	t.refuse(x, "%s: teams other than SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and those of shmem_team_split_strided are not in the subset", name)
	return ""
}

// translatePE is shmem_team_translate_pe between teams of every PE: the
// PE number itself. C gives -1 for a number outside the team, which the
// data domain cannot hold: that case is a run-time error at the call.
func (t *translator) translatePE(e cc.ExpressionNode) string {
	v := t.index(e)
	g := t.temp()
	t.emit("%s <- rank - rank + (%s >= N) * %d", g, v, poisonValue)
	return v
}

// globalExit is shmem_global_exit: the calling PE stops; the others stop
// at some later time the specification does not bound, so every finite
// continuation of theirs is a real run (docs/shmem.md has the argument).
func (t *translator) globalExit(status cc.ExpressionNode) string {
	t.index(status)
	t.emit("goto %s", t.end)
	return ""
}

// initThread is shmem_init_thread with SHMEM_THREAD_SINGLE or FUNNELED:
// one thread per PE, as the translation models. The level the library
// provides is its choice (any of the four), so it is a nondeterministic
// choice here; the call returns 0 (a failed initialisation leaves the
// program undefined).
func (t *translator) initThread(x *cc.PostfixExpression, args []cc.ExpressionNode) string {
	req, ok := constValue(args[0])
	if !ok || req != 0 && req != 1 {
		t.refuse(args[0], "shmem_init_thread with a level other than SHMEM_THREAD_SINGLE or SHMEM_THREAD_FUNNELED: threads are not modelled")
	}
	if isNull(args[1]) {
		t.refuse(args[1], "shmem_init_thread without a place for the provided level")
	}
	cell := t.localCell(args[1], 1)
	t.constant(x, 3)
	var ls []string
	for i := 0; i < 4; i++ {
		ls = append(ls, t.label())
	}
	end := t.label()
	t.emit("goto %s", strings.Join(ls, ", "))
	for i, l := range ls {
		t.place(l)
		t.emit("mem[%s] <- %d", cell, i)
		t.emit("goto %s", end)
	}
	t.place(end)
	return "0"
}

// teamRankCall reports whether x is shmem_team_my_pe or shmem_team_n_pes
// of a predefined team: like shmem_my_pe and shmem_n_pes, a local set
// once to it is substituted where it is used.
func (t *translator) teamRankCall(n string, x *cc.PostfixExpression) bool {
	if n != "shmem_team_my_pe" && n != "shmem_team_n_pes" || x.ArgumentExpressionList == nil ||
		x.ArgumentExpressionList.ArgumentExpressionList != nil {
		return false
	}
	a := x.ArgumentExpressionList.AssignmentExpression
	if predefTeam(a) {
		return true
	}
	p, ok := unparen(a).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	return ok && d != nil && t.teams[d]
}

func isTeamType(ty cc.Type) bool {
	td := ty.Typedef()
	return td != nil && td.Name() == "shmem_team_t"
}

// teamObject declares a shmem_team_t object: only one set once, at its
// declaration, to SHMEM_TEAM_WORLD or SHMEM_TEAM_SHARED, which then names
// that team; a team of part of the PEs is refused.
func (t *translator) teamObject(d *cc.Declarator, ty cc.Type, init *cc.Initializer) {
	if ty.Kind() == cc.Ptr && init != nil && init.Case == cc.InitializerExpr && d.WriteCount() == 1 && !d.AddressTaken() &&
		predefTeam(init.AssignmentExpression) {
		if t.teams == nil {
			t.teams = map[*cc.Declarator]bool{}
		}
		t.teams[d] = true
		return
	}
	if t.stridedTeamObject(d, ty, init) { // api_team_strided.go
		return
	}
	t.refuse(d, "shmem_team_t object %s: only a local set once to SHMEM_TEAM_WORLD or SHMEM_TEAM_SHARED at its declaration, or declared without initialiser (or with SHMEM_TEAM_INVALID) for shmem_team_split_strided to set, is in the subset", d.Name())
}

// sharedRefusal says why SHMEM_TEAM_SHARED is refused (teamArg).
const sharedRefusal = "SHMEM_TEAM_SHARED: its PEs are those whose memory shmem_ptr reaches, which depends on the machine, and pgasrob reads shmem_ptr as NULL for other PEs; write SHMEM_TEAM_WORLD"

// predefTeam reports whether e names SHMEM_TEAM_WORLD or SHMEM_TEAM_SHARED.
func predefTeam(e cc.ExpressionNode) bool {
	p, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		return false
	}
	d, ok := p.ResolvedTo().(*cc.Declarator)
	return ok && d != nil && (d.Name() == "__cfront_team_world" || d.Name() == "__cfront_team_shared")
}

// teamParam binds a shmem_team_t parameter of an inlined function to the
// team its argument names, which must be a predefined team (or a
// shmem_team_t naming one); a parameter assigned in the body is refused.
func (t *translator) teamParam(d *cc.Declarator, arg cc.ExpressionNode) {
	t.teamArg(arg)
	if d.WriteCount() > 0 || d.AddressTaken() {
		t.refuse(d, "shmem_team_t parameter %s is assigned or its address taken", d.Name())
	}
	if t.teams == nil {
		t.teams = map[*cc.Declarator]bool{}
	}
	t.teams[d] = true
}
