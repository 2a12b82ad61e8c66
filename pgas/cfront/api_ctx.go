// OpenSHMEM communication contexts as operands.

package cfront

import "modernc.org/cc/v4"

// ctxArg is a context argument: SHMEM_CTX_DEFAULT, a shmem_ctx_t global,
// or a shmem_ctx_t parameter bound to one.
func (t *translator) ctxArg(e cc.ExpressionNode) *entity {
	if p, ok := unparen(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		if ent := t.ident(p); ent.kind == kCtx {
			return ent
		}
	}
	t.refuse(e, "a context must be SHMEM_CTX_DEFAULT or a shmem_ctx_t object of the file")
	return nil
}
