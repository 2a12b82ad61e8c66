package tso

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/tso/prog"
)

// markedCorpus is one line of testdata/param/MARKED.
type markedCorpus struct {
	file, template string
	dropped        []string
}

func readMarked(t testing.TB) []markedCorpus {
	f, err := os.Open(filepath.Join("testdata", "param", "MARKED"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []markedCorpus
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) < 2 {
			t.Fatalf("MARKED: bad line %q", sc.Text())
		}
		out = append(out, markedCorpus{file: fs[0], template: fs[1], dropped: fs[2:]})
	}
	return out
}

// markSource rewrites a corpus program: the template's header becomes
// "thread NAME *" and the blocks of the dropped threads go.
func markSource(t testing.TB, src string, m markedCorpus) string {
	head := regexp.MustCompile(`(?m)^thread[ \t]+` + regexp.QuoteMeta(m.template) + `[ \t]*$`)
	if !head.MatchString(src) {
		t.Fatalf("%s: no thread %s", m.file, m.template)
	}
	src = head.ReplaceAllString(src, "thread "+m.template+" *")
	for _, d := range m.dropped {
		block := regexp.MustCompile(`(?ms)^thread[ \t]+` + regexp.QuoteMeta(d) + `[ \t]*$.*?^end[ \t]*$`)
		if !block.MatchString(src) {
			t.Fatalf("%s: no thread %s", m.file, d)
		}
		src = block.ReplaceAllString(src, "")
	}
	return src
}

func loadMarked(t testing.TB, m markedCorpus) *prog.Program {
	src, err := os.ReadFile(filepath.Join(corpusDir(t), m.file))
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.ParseProgram(m.file+" (marked)", []byte(markSource(t, string(src), m)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
