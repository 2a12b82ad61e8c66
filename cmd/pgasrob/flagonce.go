package main

import (
	"fmt"

	"github.com/spf13/pflag"
)

// onceValue is a string flag that may be given once: "-n 2 -n 3" is more
// likely a mistake in a script than a wish for the last one to win.
type onceValue struct {
	s   *string
	set bool
}

func (o *onceValue) String() string { return *o.s }
func (o *onceValue) Type() string   { return "string" }

func (o *onceValue) Set(v string) error {
	if o.set {
		return fmt.Errorf("given twice (%q, then %q): give it once", *o.s, v)
	}
	*o.s, o.set = v, true
	return nil
}

// stringOnceP is fs.StringP for a flag that may be given once.
func stringOnceP(fs *pflag.FlagSet, name, short, usage string) *string {
	s := new(string)
	fs.VarP(&onceValue{s: s}, name, short, usage)
	return s
}

// usageHint is the line every usage error ends with (docs/cli.md).
func usageHint(cmd string) string {
	return fmt.Sprintf("Run \"pgasrob %s --help\" for usage.", cmd)
}
