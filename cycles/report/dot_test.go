package report

import "testing"

func TestDotPath(t *testing.T) {
	tests := []struct {
		file    string
		n       int
		isRange bool
		want    string
	}{
		{"cyc.dot", 3, false, "cyc.dot"},
		{"cyc.dot", 3, true, "cyc-3.dot"},
		{"out/cyc.gv", 2, true, "out/cyc-2.gv"},
		{"cyc", 2, true, "cyc-2"},
		{"out.d/cyc", 2, true, "out.d/cyc-2"},
		{".hidden", 4, true, ".hidden-4"},
		{"a.b.dot", 5, true, "a.b-5.dot"},
	}
	for _, tt := range tests {
		if got := DotPath(tt.file, tt.n, tt.isRange); got != tt.want {
			t.Errorf("DotPath(%q, %d, %v) = %q, want %q", tt.file, tt.n, tt.isRange, got, tt.want)
		}
	}
}

func FuzzDotPath(f *testing.F) {
	for _, s := range []string{"cyc.dot", "", ".", "a/.b", "a\\b.c", "x."} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, file string, n int) {
		got := DotPath(file, n, true)
		if len(got) <= len(file) {
			t.Errorf("DotPath(%q) = %q did not add the suffix", file, got)
		}
		if DotPath(file, n, false) != file {
			t.Errorf("single N changed the name")
		}
	})
}
