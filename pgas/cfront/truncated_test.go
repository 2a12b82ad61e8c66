package cfront

import (
	"strings"
	"testing"
	"time"
)

// cc v4.31.0 loops for ever on a file that ends inside a pointer
// declarator; the sentinel ends the loop, and the timeout bounds what it
// does not reach. Each input must give an error, soon.
func TestTruncated(t *testing.T) {
	old := parseTimeout
	parseTimeout = 3 * time.Second
	defer func() { parseTimeout = old }()
	for _, s := range []string{"int *", "int * const", "^^", "^^\x00\x00\xe7\x00 \x01", "* const",
		"int main(void) { int * const", "typedef int T; T * const", "int * /*", "int * \"", "#if 1\nint *"} {
		start := time.Now()
		_, err := Translate("f.c", []byte(s), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "f.c:") {
			t.Errorf("%q: want an error at a position of f.c, got %v", s, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q: %v", s, d)
		}
	}
}
