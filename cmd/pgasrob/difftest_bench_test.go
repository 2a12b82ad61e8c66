package main

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// BenchmarkDifftest runs "pgasrob difftest --seed 1 --count 300" in
// process: the generator's default programs (with the OpenSHMEM
// constructs since issue 25) decided and checked by the oracle. It
// reports programs per second, the figure issue 25 bounds (no less than
// half of what the generator without them gives: compare with the same
// benchmark on an older tree, or with the "shmem=false" case).
func BenchmarkDifftest(b *testing.B) {
	for _, c := range []struct{ name, flag string }{{"default", ""}, {"shmem=false", "--shmem=false"}} {
		b.Run(c.name, func(b *testing.B) {
			args := []string{"difftest", "--seed", "1", "--count", "300", "--json"}
			if c.flag != "" {
				args = append(args, c.flag)
			}
			var elapsed time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				var out bytes.Buffer
				if code := run(args, &out, io.Discard); code != exitRobust {
					b.Fatalf("exit %d", code)
				}
				elapsed += time.Since(start)
				var v difftestJSON
				if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.Programs != 300 || v.Disagree != 0 {
					b.Fatalf("%v: %+v", err, v)
				}
			}
			b.ReportMetric(float64(300*b.N)/elapsed.Seconds(), "programs/s")
		})
	}
}
