// The C11 forms of shmem.h's generic routines (OpenSHMEM 1.6, section
// "C11 generic selection"): shmem_put(dest, ...) is a macro that selects
// shmem_TYPE_put by the type of *dest with _Generic, as a C11 compiler
// does with the library's own header, so an unsupported element type is a
// compile error at the call, not a guess.

package cfront

import (
	"fmt"
	"strings"
)

// genericTypes are the C types of the selections, each once: the typedefs
// of Table 5 (int64_t, size_t, ...) are the same types as these, and
// _Generic refuses two associations of one type.
var (
	rmaGeneric = [][2]string{{"char", "char"}, {"signed char", "schar"}, {"short", "short"}, {"int", "int"},
		{"long", "long"}, {"long long", "longlong"}, {"unsigned char", "uchar"},
		{"unsigned short", "ushort"}, {"unsigned int", "uint"}, {"unsigned long", "ulong"},
		{"unsigned long long", "ulonglong"}}
	// the standard and extended AMO types (Tables 6 and 7), integers only
	amoGeneric = [][2]string{{"int", "int"}, {"long", "long"}, {"long long", "longlong"},
		{"unsigned int", "uint"}, {"unsigned long", "ulong"}, {"unsigned long long", "ulonglong"}}
	// the bitwise AMO types (Table 7's bitwise column): int32_t and
	// int64_t are int and long here
	bitGeneric = [][2]string{{"unsigned int", "uint"}, {"unsigned long", "ulong"}, {"unsigned long long", "ulonglong"},
		{"int", "int32"}, {"long", "int64"}}
	// the point-to-point synchronisation types (Table 10)
	waitGeneric = [][2]string{{"short", "short"}, {"int", "int"}, {"long", "long"}, {"long long", "longlong"},
		{"unsigned short", "ushort"}, {"unsigned int", "uint"}, {"unsigned long", "ulong"},
		{"unsigned long long", "ulonglong"}}
)

// genericRoutines: the generic name, its types, the number of arguments
// of the form without a context (0: no context form), and the name of
// the selecting argument's position (always the first after the context).
var genericRoutines = []struct {
	op    string
	types [][2]string
	args  int
	ctx   bool
}{
	{"put", rmaGeneric, 4, true}, {"put_nbi", rmaGeneric, 4, true},
	{"get", rmaGeneric, 4, true}, {"get_nbi", rmaGeneric, 4, true},
	{"p", rmaGeneric, 3, true}, {"g", rmaGeneric, 2, true},
	{"put_signal", rmaGeneric, 7, true}, {"put_signal_nbi", rmaGeneric, 7, true},
	{"atomic_fetch", amoGeneric, 2, true}, {"atomic_set", amoGeneric, 3, true},
	{"atomic_add", amoGeneric, 3, true}, {"atomic_inc", amoGeneric, 2, true},
	{"atomic_fetch_add", amoGeneric, 3, true}, {"atomic_fetch_inc", amoGeneric, 2, true},
	{"atomic_swap", amoGeneric, 3, true}, {"atomic_compare_swap", amoGeneric, 4, true},
	{"atomic_fetch_nbi", amoGeneric, 3, true}, {"atomic_fetch_inc_nbi", amoGeneric, 3, true},
	{"atomic_fetch_add_nbi", amoGeneric, 4, true}, {"atomic_swap_nbi", amoGeneric, 4, true},
	{"atomic_compare_swap_nbi", amoGeneric, 5, true},
	{"atomic_and", bitGeneric, 3, true}, {"atomic_or", bitGeneric, 3, true}, {"atomic_xor", bitGeneric, 3, true},
	{"atomic_fetch_and", bitGeneric, 3, true}, {"atomic_fetch_or", bitGeneric, 3, true},
	{"atomic_fetch_xor", bitGeneric, 3, true}, {"atomic_fetch_and_nbi", bitGeneric, 4, true},
	{"atomic_fetch_or_nbi", bitGeneric, 4, true}, {"atomic_fetch_xor_nbi", bitGeneric, 4, true},
	{"wait_until", waitGeneric, 3, false}, {"test", waitGeneric, 3, false},
	{"wait_until_all", waitGeneric, 5, false}, {"wait_until_any", waitGeneric, 5, false},
	{"wait_until_some", waitGeneric, 6, false}, {"test_all", waitGeneric, 5, false},
	{"test_any", waitGeneric, 5, false}, {"test_some", waitGeneric, 6, false},
}

// genericC11 is the block of shmem.h that a C11 compiler sees: one macro
// per generic routine. A routine with a context form is selected by its
// number of arguments first (the context comes first), then by the type
// of the destination.
func genericC11() string {
	var b strings.Builder
	b.WriteString("#if __STDC_VERSION__ >= 201112L\n")
	b.WriteString("double __cfront_float();\n")
	b.WriteString("#define __cfront_nth(_1, _2, _3, _4, _5, _6, _7, _8, N, ...) N\n")
	b.WriteString("#define __cfront_cat(a, b) __cfront_cat2(a, b)\n#define __cfront_cat2(a, b) a##b\n")
	for _, g := range genericRoutines {
		sel := func(prefix string) string {
			var s []string
			for _, ty := range g.types {
				s = append(s, fmt.Sprintf("%s: shmem_%s%s_%s", ty[0], prefix, ty[1], g.op))
			}
			// the floating-point selections of the specification, so
			// that such a call is refused by name, not by _Generic
			for _, ty := range []string{"float", "double", "long double"} {
				s = append(s, ty+": __cfront_float")
			}
			return strings.Join(s, ", ")
		}
		if !g.ctx {
			fmt.Fprintf(&b, "#define shmem_%s(dest, ...) _Generic(*(dest), %s)(dest, __VA_ARGS__)\n", g.op, sel(""))
			continue
		}
		// shmem_OP(...) → __cfront_OP_K(...) for K arguments
		var counts []string
		for k := 8; k >= 1; k-- {
			counts = append(counts, fmt.Sprint(k))
		}
		fmt.Fprintf(&b, "#define shmem_%s(...) __cfront_cat(__cfront_%s_, __cfront_nth(__VA_ARGS__, %s))(__VA_ARGS__)\n",
			g.op, g.op, strings.Join(counts, ", "))
		fmt.Fprintf(&b, "#define __cfront_%s_%d(dest, ...) _Generic(*(dest), %s)(dest, __VA_ARGS__)\n", g.op, g.args, sel(""))
		fmt.Fprintf(&b, "#define __cfront_%s_%d(ctx, dest, ...) _Generic(*(dest), %s)(ctx, dest, __VA_ARGS__)\n", g.op, g.args+1, sel("ctx_"))
	}
	b.WriteString("#endif\n")
	return b.String()
}
