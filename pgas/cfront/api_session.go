// OpenSHMEM 1.6 sessions (shmem_ctx_session_start/stop) and the invalid
// context SHMEM_CTX_INVALID. A session is a hint: "Starting and stopping
// OpenSHMEM sessions should not affect the completion or ordering
// semantics of any OpenSHMEM routines in the program" (1.6, Sessions), so
// both routines order and complete nothing here; their arguments are
// evaluated, the context must be one the translation knows.

package cfront

import "modernc.org/cc/v4"

// apiSession is the part of shmem.h for sessions. The constants' values
// are the implementation's choice; these are bits, as the options are
// combined with |.
const apiSession = `extern shmem_ctx_t __cfront_ctx_invalid;
#define SHMEM_CTX_INVALID __cfront_ctx_invalid
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
typedef struct { size_t total_ops; } shmem_ctx_session_config_t;
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config, long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);
`

// session translates shmem_ctx_session_start and _stop: nothing but the
// evaluation of the arguments. The configuration must be NULL or the
// address of an object (reading it would change nothing: a hint).
func (t *translator) session(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) string {
	if name == "shmem_ctx_session_stop" {
		t.arity(x, name, args, 1)
		t.ctxArg(args[0])
		return ""
	}
	t.arity(x, name, args, 4)
	t.ctxArg(args[0])
	t.index(args[1])
	if u, ok := unparen(args[2]).(*cc.UnaryExpression); !isNull(args[2]) && (!ok || u.Case != cc.UnaryExpressionAddrof || identDecl(unparen(u.CastExpression)) == nil) {
		t.refuse(args[2], "the configuration of %s must be NULL or &config for a shmem_ctx_session_config_t object", name)
	}
	t.index(args[3])
	return ""
}

// ctxInvalid refuses SHMEM_CTX_INVALID wherever it is used: in the model
// every context the program creates is valid (shmem_ctx_create and
// shmem_team_create_ctx return 0), and a context handle is not a value the
// translation compares.
func (t *translator) ctxInvalid(x cc.Node) {
	t.refuse(x, "SHMEM_CTX_INVALID: context handles are not values the translation compares (in the model shmem_ctx_create succeeds and returns 0); test the value it returns instead")
}

// ctxCompare refuses a comparison of context handles (with
// SHMEM_CTX_INVALID or another context) by name.
func (t *translator) ctxCompare(e cc.ExpressionNode) {
	if x, ok := e.(*cc.EqualityExpression); ok && x.EqualityExpression != nil &&
		(isCtxType(x.EqualityExpression.Type()) || isCtxType(x.RelationalExpression.Type())) {
		t.ctxInvalid(x)
	}
}
