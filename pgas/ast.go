package pgas

// The syntax tree of a .pgas file, as the parser leaves it: names are not
// resolved yet and mem[...] may sit anywhere an expression can. The checker
// (check.go) decides what is allowed where, so that the parser stays a
// plain grammar and the error messages about misuse can be specific.

// node is embedded in every expression: its position and its byte span in
// the source, from which Expr.Src is cut.
type node struct {
	pos    Pos
	lo, hi int
	// bare is the span without enclosing parentheses, set when there
	// are some: Src shows "assume(e)" rather than "assume((e))".
	bare [2]int
}

// srcSpan is the span an expression's Src is cut from.
func (n *node) srcSpan() (int, int) {
	if n.bare != [2]int{} {
		return n.bare[0], n.bare[1]
	}
	return n.lo, n.hi
}

func (n *node) base() *node { return n }

type exprNode interface{ base() *node }

type (
	intLit struct {
		node
		val int64
	}
	nameRef struct {
		node
		name string
	}
	rankRef struct{ node }
	nRef    struct{ node }
	memRef  struct {
		node
		addr exprNode
	}
	unary struct {
		node
		op tokKind // tMinus or tNot
		x  exprNode
	}
	binary struct {
		node
		op   tokKind
		x, y exprNode
	}
)

type ident struct {
	name string
	pos  Pos
}

type stmtKind uint8

const (
	sAssign stmtKind = iota // r <- e (a load when e is exactly mem[a])
	sStore                  // mem[a] <- e
	sAssume
	sAssert
	sRead
	sWrite
	sGet
	sPut
	sBarrier
	sWait  // wait h
	sWaitq // waitq e / quiet e
	sGoto  // goto L1, L2 ... alone
	sIf    // if e goto L
	// The OpenSHMEM statements (docs/shmem-calculus.md); call names
	// which one.
	sShmem // putmem(...), getmem(...), amo_add(...), put_signal(...) ...
	sFence // fence c
)

// stmt is one line of code. Which fields are set depends on kind.
type stmt struct {
	kind   stmtKind
	pos    Pos    // where the statement (after its labels) starts
	text   string // its source text without labels, goto suffix and comment
	labels []ident
	reg    ident      // sAssign: destination
	lhs    exprNode   // sStore: the mem[...] target
	x      exprNode   // value, condition, or waitq queue
	args   []exprNode // read, write, get, put
	handle ident      // read/write "-> h"; wait h
	// targets lists the labels of an explicit "goto"; for sIf the single
	// label jumped to when the condition holds.
	targets []ident
	hasGoto bool // the statement ends with "; goto ..." or is a goto
	// negate makes an sIf jump when its condition is false; block forms
	// compile to it.
	negate bool
	// call is the name of an OpenSHMEM statement (sShmem), of the
	// fetching atomic on the right of an sAssign ("" for a plain
	// assignment or load), or "quiet"/"waitq" for sWaitq.
	call string
	// guard, on an sAssign that loads or calls a fetching atomic, makes
	// it an atomic await: "r <- mem[a] when g".
	guard exprNode
	// set, on an sBarrier, is the set of ranks it synchronises (nil:
	// every rank); setPos is where its brace opens.
	set    []setItem
	setPos Pos
}

// setItem is a rank (last nil) or a range of ranks first..last of a
// barrier's set.
type setItem struct{ first, last exprNode }

type addrDecl struct {
	name ident
	size int // 1 for a plain address
}

// file is a parsed .pgas file.
type file struct {
	name      ident
	values    int64 // K of "values K", or HI of "values LO..HI"
	valuesLo  int64 // LO of "values LO..HI"
	valuesWin bool  // the window form
	valuesPos Pos
	hasValues bool
	addrs     []addrDecl
	regs      []ident
	queues    []ident // queues and contexts, in declaration order
	isCtx     []bool  // isCtx[i]: queues[i] was declared by "context"
	stmts     []*stmt
	endLabels []ident // labels written after the last statement
}
