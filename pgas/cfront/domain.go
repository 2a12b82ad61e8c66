// Value-domain inference: the data domain the translation needs.

package cfront

import "modernc.org/cc/v4"

func (t *translator) values() int {
	if t.opt.Values > 0 {
		return t.opt.Values
	}
	v := t.maxc + 1
	if v < 2 {
		v = 2
	}
	return int(v)
}

// constant records a literal in a value position, for the inferred domain.
func (t *translator) constant(n cc.Node, v int64) {
	if v < 0 {
		return // refused where used as a value: values are 0..values-1
	}
	if v >= maxValues && t.opt.Values == 0 {
		t.refuse(n, "constant %d is outside the data domain (values are 0..%d at most); the checker explores every value of every cell", v, maxValues-1)
	}
	if v > t.maxc {
		t.maxc = v
	}
}
