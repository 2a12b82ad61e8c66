package cfront

import (
	"strings"
	"testing"
)

// cc v4.31.0 loops for ever on a file that ends inside a pointer
// declarator. The sentinel, checked to end the preprocessed tokens, keeps
// the parser away from that loop without any timeout: each input gives an
// error at a position of the file. (A regression would hang this test;
// go test's own -timeout reports it.)
func TestTruncated(t *testing.T) {
	for _, s := range []string{"int *", "int * const", "^^", "^^\x00\x00\xe7\x00 \x01", "* const",
		"int main(void) { int * const", "typedef int T; T * const", "int * /*", "int * \"", "#if 1\nint *",
		"int * '", "int (*", "int *\\", "#define P(x) x\nint * P(", "int x[", "struct { int *"} {
		_, err := Translate("f.c", []byte(s), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "f.c:") {
			t.Errorf("%q: want an error at a position of f.c, got %v", s, err)
		}
	}
}
