package cfront

import (
	"regexp"
	"strings"
	"sync"
)

// shmem.h declares every typed routine of the specification for every
// element type: about 2,500 prototypes, 260 KB, which cc would preprocess
// and type-check for each file although a program names a few dozen. The
// header a file is given keeps only the prototypes whose routine the file
// can name; the rest of shmem.h (types, constants, the C11 generic macros)
// is kept whole. The pruning changes no meaning: a prototype is dropped
// only when its name cannot occur in the preprocessed file, and when that
// cannot be known from the text (token pasting, a header of the user's, a
// computed #include) the whole header is used.

// pruneHeaders is false only in the test that compares every translation
// with and without the pruning.
var pruneHeaders = true

// fullShmemH is shmem.h with every prototype, built once.
var fullShmemH = sync.OnceValue(shmemH)

// includeRE finds the target of every #include directive.
var includeRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*(\S*)`)

// protoRE recognises a prototype line of shmem.h and captures its name.
var protoRE = regexp.MustCompile(`^[^#].*?\b(shmem_[A-Za-z0-9_]+)\(.*\);$`)

// namedRoutines is the set of routine names a file can reach, or nil when
// it cannot be told from the text (then every prototype is kept).
func namedRoutines(src []byte, opt Options) map[string]bool {
	if !pruneHeaders {
		return nil
	}
	text := string(src)
	for _, d := range opt.Defines {
		text += "\n" + d
	}
	if strings.Contains(text, "##") {
		return nil // pasting can form any name
	}
	for _, m := range includeRE.FindAllStringSubmatch(text, -1) {
		if !ourHeader(m[1]) {
			return nil // the user's header may name routines
		}
	}
	names := map[string]bool{}
	// identifiers in comments and strings too: a superset is harmless
	for _, id := range identRE.FindAllString(text, -1) {
		if strings.HasPrefix(id, "shmem_") {
			names[id] = true
		}
	}
	// a C11 generic name expands to a _Generic over every typed form,
	// each of which must be declared
	for _, g := range genericRoutines {
		if !names["shmem_"+g.op] {
			continue
		}
		for _, ty := range g.types {
			names["shmem_"+ty[1]+"_"+g.op] = true
			names["shmem_ctx_"+ty[1]+"_"+g.op] = true
		}
	}
	return names
}

// ourHeader reports whether an #include target (with its quotes or angle
// brackets) names one of pgasrob's own headers.
func ourHeader(target string) bool {
	if len(target) < 3 || !(target[0] == '<' && target[len(target)-1] == '>' || target[0] == '"' && target[len(target)-1] == '"') {
		return false // a computed include
	}
	name := target[1 : len(target)-1]
	if name == "shmem.h" {
		return true
	}
	_, err := libHeaders.Open("include/" + name)
	return err == nil
}

// shmemHFor is shmem.h with the prototypes of the named routines only
// (every prototype when names is nil).
func shmemHFor(names map[string]bool) string {
	full := fullShmemH()
	if names == nil {
		return full
	}
	var b strings.Builder
	b.Grow(len(full) / 8)
	for line := range strings.Lines(full) {
		if m := protoRE.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil && !names[m[1]] {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
