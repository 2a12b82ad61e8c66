package pgas

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCompile feeds arbitrary bytes to the front end. No input may panic
// or hang; every failure must be an ErrorList with positions; every
// success must be a well-formed Program.
func FuzzCompile(f *testing.F) {
	files, _ := filepath.Glob("../examples/*.pgas")
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	for _, tt := range staticErrors {
		if len(tt.src) < 4096 {
			f.Add([]byte(tt.src))
		}
	}
	for _, tt := range shmemErrors {
		if len(tt.src) < 4096 {
			f.Add([]byte(tt.src))
		}
	}
	shmemFiles, _ := filepath.Glob("../examples/shmem-calculus/*.pgas")
	for _, name := range shmemFiles {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	for _, s := range []string{
		shmemHeader + "putmem(x, 2, y, c)\nputmem_nbi(x, 2, y, d)\nputval(r, 1, a, c)\ngetmem(x, 2, y, c)\ngetmem_nbi(a+1, 1, y, d)\nfence c\nquiet d\nquiet q\n",
		shmemHeader + "amo_add(1, 2, x, c)\namo_inc(2, x, c)\namo_set(2, 1, x, d)\nr <- amo_fetch(1, x, c)\nr <- amo_fetch_add(r, 2, x, c)\ns <- amo_fetch_inc(1, y, d)\nr <- amo_swap(1, 1, x, c)\nL: r <- amo_cswap(0, 1, 1, x, c) when r == 0; goto L\n",
		shmemHeader + "put_signal(x, 2, y, a, 1, c)\nput_signal_add(x, 2, y, a, 1, c)\nput_signal_nbi(x, 2, y, a, 1, d)\nput_signal_add_nbi(x, 2, y, a, 1, d)\nr <- mem[a] when r == 2\n",
		shmemHeader + "put_signal(a, 2, y, x, 1, c, 2, 1, 0)\nput_signal_add_nbi(a, 1, y, x, 1, d, 2, 0, 1)\nput_signal(a, 1, y, x, 1, c, 2, 1)\n",
		header + "L: r <- mem[x]\nif r == 0 goto L\nwrite(x, 2, y, q) -> h\nwait h\nM: s <- 1; goto E\nM: s <- 2; goto E\ngoto M, L\nE:\nget(a+1, 1, y, p)\nput(a, 1, y, p)\nwaitq q\nassert mem[a+1] + r == 2\n",
		header + "goto A, B\nA: goto B\nB: goto A\n",
		header + "L: while r < 2 {\n if r == 0 {\n  s <- 1\n } else {\n  s <- 2\n }\n r <- r + 1\n}\n",
		header + "if r {\n}\n}\n} else {\nwhile 1 {\n",
		header + "r <- (((((1)))))\n",
		"values 2\n\n\n#\n",
		"values -1..1337\naddress x\nregister r\nr <- -1\nmem[x] <- r + 1338\nr <- mem[x] when r == -1\n",
		"values -4294967296..4294967296\nregister r\nr <- r * r\n",
		"values -..\n", "values 3..\n", "values ..5\n",
		header + "barrier {1, 2..N}\nif rank <= N / 2 {\n barrier {1..N / 2}\n}\nbarrier {}\nbarrier {1\nbarrier {r}\nbarrier {mem[x]}\n",
		"values 2\nbarrier {N..1, 0}\nbarrier {1, 1, 1..1}\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Compile("f.pgas", src)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %v", err)
			}
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Msg == "" {
					t.Fatalf("error without position or message: %q", e.Error())
				}
			}
			return
		}
		checkWellFormed(t, p)
		for n := 1; n <= 2; n++ {
			_ = CheckN(p, n)
		}
	})
}
