package cfront

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pgasrob/pgasrob/pgas"
)

// The getopt machine, run from the start as a program's loop runs it:
// the results and optarg of each call, then optind at the end, as POSIX
// getopt gives them (worked out by hand for each command line).
func TestGetoptMachine(t *testing.T) {
	for _, c := range []struct {
		args, opts string
		want       string // each call "c" or "c=optarg", then "end optind"
	}{
		{"", "v", "end 1"},
		{"-v", "v", "v end 2"},
		{"-vq 5", "qv", "v q end 2"},
		{"-n 3 -v", "n:v", "n=3 v end 4"},
		{"-n3 x", "n:v", "n=3 end 2"},
		{"-x", "v", "? end 2"},
		{"-n", "n:", "? end 2"},
		{"-n", ":n:", ": end 2"},
		{"-- -v", "v", "end 2"},
		{"-vn", "vn:", "v ? end 2"},
	} {
		tr := newTranslator("p.c", nil, Options{Args: strings.Fields(c.args)})
		m := tr.getoptMachine(nil, c.opts)
		argv := tr.argv()
		var got []string
		s := optState{1, 0}
		for k := 0; k < 10; k++ {
			st := m[s]
			if st.ret == -1 {
				got = append(got, fmt.Sprintf("end %d", st.next.ind))
				break
			}
			w := string(rune(st.ret))
			if st.argW > 0 {
				w += "=" + argv[st.argW][st.argO:]
			}
			got = append(got, w)
			s = st.next
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("getopt %q on %q: got %q, want %q", c.opts, c.args, g, c.want)
		}
	}
}

// A getopt loop on the command line of --args translates to the branch
// per state; an option after an operand (where glibc and POSIX differ)
// and a GNU option string are refused.
func TestGetoptTranslate(t *testing.T) {
	src := "#include <shmem.h>\n#include <stdlib.h>\n#include <unistd.h>\nlong x;\n" +
		"int main(int argc, char **argv) {\n  int c;\n  opterr = 0;\n  while ((c = getopt(argc, argv, \"n:\")) == 'n')\n    x = atoi(optarg);\n  return 0;\n}\n"
	r, err := Translate("p.c", []byte(src), Options{Args: []string{"-n", "2", "-n3"}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range splitLines(string(r.Source)) {
		lines = append(lines, strings.TrimSpace(l))
	}
	for _, want := range [][]string{
		{"optind <- 1", "opterr <- 1", "opterr <- 0"},
		// every word is a state (the program may set optind), the
		// operand "2" and the end give -1
		{"if optind == 1 && getopt_nc == 0 goto L5", "if optind == 2 && getopt_nc == 0 goto L6", "if optind == 3 && getopt_nc == 0 goto L7", "if optind == 4 && getopt_nc == 0 goto L8", "goto END"},
		{"L5:", "tmp0 <- 110", "optind <- 3", "getopt_nc <- 0", "getopt_argw <- 2", "getopt_argo <- 0"},
		{"L6:", "tmp0 <- (-1)", "optind <- 2", "getopt_nc <- 0"},
		{"L7:", "tmp0 <- 110", "optind <- 4", "getopt_nc <- 0", "getopt_argw <- 3", "getopt_argo <- 2"},
		{"L8:", "tmp0 <- (-1)", "optind <- 4", "getopt_nc <- 0"},
	} {
		if !has(lines, want...) {
			t.Errorf("want %q in\n%s", want, r.Source)
		}
	}
	if !strings.Contains(string(r.Source), "if getopt_argw == 2 && getopt_argo == 0 goto") || !strings.Contains(string(r.Source), "<- 3\n") {
		t.Errorf("atoi(optarg): want a case per argument\n%s", r.Source)
	}
	for _, c := range []struct {
		args []string
		opts string
		want string
	}{
		{[]string{"5", "-v"}, "v", "the option -v after an operand"},
		{[]string{"-v"}, "+v", "GNU extensions"},
		{[]string{"-", "-v"}, "v", "the option -v after an operand"},
	} {
		s := strings.Replace(src, `"n:"`, `"`+c.opts+`"`, 1)
		_, err := Translate("p.c", []byte(s), Options{Args: c.args})
		var list pgas.ErrorList
		if !errors.As(err, &list) || !strings.Contains(list[0].Msg, c.want) {
			t.Errorf("%v %q: got %v, want …%s…", c.args, c.opts, err, c.want)
		}
	}
}
