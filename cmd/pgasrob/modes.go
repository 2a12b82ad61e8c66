package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// A command that runs in several ways (tso: a check, a fence search, a
// shard, the parameterized check, the flattening abstraction, the table of
// criteria) picks its mode once, from its flags, and checks every flag
// given against that mode here: which flags a mode reads is data, not a
// chain of "does not go with" tests spread over the command. docs/cli.md
// lists the same.

// A mode is one way a command runs.
type mode struct {
	key string
	// when selects the mode: a flag ("fences") or a flag with a value
	// ("criterion=all"); "" for the command's default mode, which comes
	// last.
	when string
	// name is the mode in messages: "--parameterized", "--criterion all".
	name string
	// uses lists the flags the mode reads, its selector among them;
	// ignores those it accepts without effect (docs/cli.md says so).
	uses, ignores []string
	// hints say why a flag is refused where the rule alone would puzzle.
	hints map[string]string
}

// modeTable is a command's modes by precedence: the first whose selector
// is given is the mode, and the flags of the other modes are refused.
type modeTable struct {
	cmd   string
	modes []mode
	// needs lists the flags that mean something only beside another
	// (--cost beside --fences), in every mode.
	needs map[string]string
	// choices are the flags whose value a message repeats: each value is
	// a variant of the command ("--model pso"), not a file or a number.
	choices []string
}

// given reports whether the user set f to something other than its
// default: a flag set to its default is the same as a flag left out
// (the choices' values are read without regard to case, as the
// commands read them).
func given(f *pflag.Flag) bool {
	return f != nil && f.Changed && !strings.EqualFold(f.Value.String(), f.DefValue)
}

// selects reports whether the mode's selector is given.
func (m mode) selects(fs *pflag.FlagSet) bool {
	name, value, hasValue := strings.Cut(m.when, "=")
	if name == "" {
		return true
	}
	f := fs.Lookup(name)
	return given(f) && (!hasValue || f.Value.String() == value)
}

// resolve picks the mode and checks every flag given against it; the
// error names the first flag, in the order given, that does not fit.
func (t modeTable) resolve(fs *pflag.FlagSet) (mode, error) {
	i := slices.IndexFunc(t.modes, func(m mode) bool { return m.selects(fs) })
	m := t.modes[i] // the default mode selects always
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if err != nil || !given(f) {
			return
		}
		if need, ok := t.needs[f.Name]; ok && !given(fs.Lookup(need)) {
			err = fmt.Errorf("%s goes with --%s", t.show(f), need)
			return
		}
		if slices.Contains(m.uses, f.Name) || slices.Contains(m.ignores, f.Name) {
			return
		}
		err = fmt.Errorf("%s does not go with %s", t.show(f), m.name)
		if h := m.hints[f.Name]; h != "" {
			err = fmt.Errorf("%v (%s)", err, h)
		}
	})
	return m, err
}

// show writes a flag as a message names it.
func (t modeTable) show(f *pflag.Flag) string {
	if slices.Contains(t.choices, f.Name) {
		return "--" + f.Name + " " + f.Value.String()
	}
	return "--" + f.Name
}

// usageError prints a usage error in the one shape docs/cli.md gives
// (what is wrong, then where help is) and returns its exit code.
func usageError(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "pgasrob %s: %v\nRun \"pgasrob %s --help\" for usage.\n", cmd, err, cmd)
	return exitUsage
}

// flagList joins groups of flag names written as space-separated lists,
// so that the tables read as the help does.
func flagList(groups ...string) []string {
	var out []string
	for _, g := range groups {
		out = append(out, strings.Fields(g)...)
	}
	return out
}
