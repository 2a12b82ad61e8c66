package cycles

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// commuteExpectRE is the verdict line every litmus file of
// examples/commuting carries below its hand argument.
var commuteExpectRE = regexp.MustCompile(`(?m)^# expect: N=2 strict (ROBUST|NOT ROBUST), commuting (ROBUST|NOT ROBUST)$`)

// commuteLitmus is a litmus file of dir with the verdicts its header
// argues at N = 2 under the paper's relation and under cf_c.
type commuteLitmus struct {
	file                 string
	src                  []byte
	strictRobust, robust bool
}

func commuteLitmusFiles(t *testing.T, dir string) []commuteLitmus {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.pgas"))
	if len(files) < 10 {
		t.Fatalf("only %d litmus files in %s", len(files), dir)
	}
	var ls []commuteLitmus
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := commuteExpectRE.FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s: no line \"# expect: N=2 strict V, commuting V\"", f)
		}
		ls = append(ls, commuteLitmus{file: f, src: src, strictRobust: string(m[1]) == "ROBUST", robust: string(m[2]) == "ROBUST"})
	}
	return ls
}
