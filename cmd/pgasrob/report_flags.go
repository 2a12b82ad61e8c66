package main

import (
	"os"

	"github.com/spf13/pflag"
)

// --format and --sarif for the commands beyond decide (cycles, repair):
// decide's output flags without --html and --sarif-fixes (decide_output.go
// writes them; cycles/report renders).

const formatFlagNames = "format sarif"

func addFormatFlags(fs *pflag.FlagSet, cmd string) *outputFlags {
	o := &outputFlags{cmd: cmd, isTTY: func() bool { return isTerminal(os.Stdout) }, html: new(string), fixes: new(bool)}
	o.format = fs.String("format", "text", "standard output: text (for people), gcc (compiler diagnostics FILE:LINE:COL: error: ...), or auto (gcc when standard output is not a terminal)")
	o.sarif = fs.String("sarif", "", "also write the results as SARIF 2.1.0 to `FILE` (code scanning; \"-\": standard output, instead of the text)")
	return o
}
