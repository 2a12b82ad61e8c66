package main

import (
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/cycles/repair"
	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// The parts of a C repair that do not need a repair: where a call may be
// inserted, and what has no C form.
func TestCEditHelpers(t *testing.T) {
	lines := strings.SplitAfter("int main(void) {\n  if (x)\n    f();\n  g(); // done\n  h();\n}\n", "\n")
	if got := prevCode(lines, 3); got != "if (x)" {
		t.Errorf("prevCode before line 3: %q", got)
	}
	if got := prevCode(lines, 5); got != "g();" {
		t.Errorf("prevCode before line 5: %q", got)
	}
	if got := prevCode(strings.SplitAfter("if (x) /* c */\n\n  f();\n", "\n"), 3); got != "if (x)" {
		t.Errorf("prevCode after a comment: %q", got)
	}
	tr := &cfront.Result{Names: map[string]string{"ctx_default": "SHMEM_CTX_DEFAULT", "lock_ctx": "(locks)"}}
	for ctx, want := range map[string]string{"ctx_default": "shmem_fence()", "c": "shmem_ctx_fence(c)", "lock_ctx": ""} {
		got, err := cSync("fence", ctx, tr)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("cSync(fence, %s) = %q, %v; want %q", ctx, got, err, want)
		}
	}
	in := repair.Insertion{Candidate: repair.Candidate{Kind: repair.Wait, At: pgas.Pos{Line: 1}}, Text: "wait h1 before line 1"}
	if _, _, _, err := cEdits("t.c", []byte("int main(void){return 0;}\n"), tr, []repair.Insertion{in}); err == nil || !strings.Contains(err.Error(), "no C form") {
		t.Errorf("a wait in C: %v", err)
	}
}
