package cfront

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// SplitCommand splits as a POSIX shell does: the flags of a real build's
// command survive quoting.
func TestSplitCommand(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`cc -c a.c`, []string{"cc", "-c", "a.c"}},
		{`cc  -DNAME="a b" -I'/x y' a\ b.c`, []string{"cc", "-DNAME=a b", "-I/x y", "a b.c"}},
		{`cc -DS=\"s\" "q\"uote"`, []string{"cc", `-DS="s"`, `q"uote`}},
		{``, nil},
	} {
		got, err := SplitCommand(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`cc 'a`, `cc "a`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q): no error", bad)
		}
	}
}

// Flags finds the file's entry (relative file names against the entry's
// directory) and keeps -I (made absolute), -isystem, -iquote and -D in
// order; -U is refused; another file has no entry.
func TestCompDBFlags(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "compile_commands.json")
	data := `[{"directory": "` + dir + `", "file": "a.c", "command": "mpicc -O2 -Iinc -isystem /sys/inc -D A=1 -DB -Wall -c a.c"},
	{"directory": "` + dir + `", "file": "b.c", "arguments": ["cc", "-UX", "b.c"]}]`
	if err := os.WriteFile(db, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cdb, err := ReadCompDB(db)
	if err != nil {
		t.Fatal(err)
	}
	inc, def, ok, err := cdb.Flags(filepath.Join(dir, "a.c"))
	if !ok || err != nil || !reflect.DeepEqual(inc, []string{filepath.Join(dir, "inc"), "/sys/inc"}) || !reflect.DeepEqual(def, []string{"A=1", "B"}) {
		t.Errorf("a.c: %q %q %v %v", inc, def, ok, err)
	}
	if _, _, ok, err := cdb.Flags(filepath.Join(dir, "b.c")); !ok || err == nil || !strings.Contains(err.Error(), "-UX") {
		t.Errorf("b.c: -U accepted: %v", err)
	}
	if _, _, ok, _ := cdb.Flags(filepath.Join(dir, "c.c")); ok {
		t.Errorf("c.c has no entry")
	}
	if err := os.WriteFile(db, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCompDB(db); err == nil || !strings.Contains(err.Error(), "not a compilation database") {
		t.Errorf("bad JSON: %v", err)
	}
}

// A program's own header is found in its directory and in -I
// directories, and its declarations are translated; our headers win over
// a header of the same name there; nothing outside those directories is
// read, even through "..".
func TestIncludes(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "src")
	for path, src := range map[string]string{
		"src/local.h":   "long from_local;\n",
		"inc/common.h":  "static int twice(int v) { return 2 * v; }\n#define N_ITEMS COUNT\n",
		"inc/shmem.h":   "#error the build's shmem.h was read\n",
		"secret.h":      "long secret;\n",
		"src/prog.c":    "#include <shmem.h>\n#include \"local.h\"\n#include \"common.h\"\nint main(void) { from_local = twice(N_ITEMS); return 0; }\n",
		"src/escape.c":  "#include \"../secret.h\"\nint main(void) { return 0; }\n",
		"src/escape2.c": "#include <../secret.h>\nint main(void) { return 0; }\n",
	} {
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt := Options{IncludeDirs: []string{filepath.Join(dir, "inc")}, Defines: []string{"COUNT=1"}}
	prog := filepath.Join(sub, "prog.c")
	src, _ := os.ReadFile(prog)
	r, err := Translate(prog, src, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(r.Source); !strings.Contains(s, "address from_local") || !strings.Contains(s, "tmp0 <- (2 * (1))") || !strings.Contains(s, "mem[from_local] <- tmp0") {
		t.Errorf("the headers' declarations were not translated:\n%s", s)
	}
	for _, f := range []string{"escape.c", "escape2.c"} {
		p := filepath.Join(sub, f)
		src, _ := os.ReadFile(p)
		if _, err := Translate(p, src, opt); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("%s: a header outside the directories was read: %v", f, err)
		}
	}
	if _, err := Translate(prog, src, Options{Defines: []string{"1X"}}); err == nil || !strings.Contains(err.Error(), "not a macro name") {
		t.Errorf("-D 1X: %v", err)
	}
}
