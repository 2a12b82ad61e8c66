package main

// The compiler-style flags of every command that reads C (issue 33): -I,
// -D, --compile-commands for the preprocessor, --args for main's command
// line. They set the options of pgas/cfront for the one C file the
// command reads.

import (
	"fmt"
	"strings"

	"github.com/pgasrob/pgasrob/pgas/cfront"
	"github.com/spf13/pflag"
)

type cFlags struct {
	includes *[]string
	defines  *[]string
	compdb   *string
	args     *string
}

func addCFlags(fs *pflag.FlagSet) *cFlags {
	return &cFlags{
		includes: fs.StringArrayP("include-dir", "I", nil, "for a C FILE: search `DIR` for #include files not among pgasrob's own headers (repeatable)"),
		defines:  fs.StringArrayP("define", "D", nil, "for a C FILE: define the macro `NAME[=VALUE]` (VALUE 1 by default; repeatable)"),
		compdb:   fs.String("compile-commands", "", "for a C FILE: take its -I and -D flags from the compilation database `JSON` of a real build (compile_commands.json)"),
		args:     fs.String("args", "", "for a C FILE: the command line main receives after the program's name, as `\"WORDS\"` (quoted as in a shell; none by default)"),
	}
}

// options are the options of the C front end for file from the flags;
// the database's flags come first, then -I and -D in order. (Options, not
// a global: the files of a project are translated in parallel.)
func (c *cFlags) options(file string) (cfront.Options, error) {
	opt := cfront.Options{}
	if *c.compdb != "" {
		db, err := cfront.ReadCompDB(*c.compdb)
		if err != nil {
			return opt, err
		}
		inc, def, ok, err := db.Flags(file)
		if err != nil {
			return opt, fmt.Errorf("--compile-commands %s: %v", *c.compdb, err)
		}
		if !ok {
			return opt, fmt.Errorf("--compile-commands %s: no entry for %s", *c.compdb, file)
		}
		opt.IncludeDirs, opt.Defines = inc, def
	}
	opt.IncludeDirs = append(opt.IncludeDirs, *c.includes...)
	opt.Defines = append(opt.Defines, *c.defines...)
	if *c.args != "" {
		words, err := cfront.SplitCommand(*c.args)
		if err != nil {
			return opt, fmt.Errorf("--args: %v", err)
		}
		opt.Args = words
	}
	return opt, nil
}

// cFlagNames are the flags addCFlags defines, for the mode tables: every
// mode of a command that reads C uses them, except a shard's (see
// cShardHints).
const cFlagNames = "include-dir define compile-commands args"

// cShardHints adds to a shard mode's hints why the C flags are refused.
func cShardHints(h map[string]string) map[string]string {
	if h == nil {
		h = map[string]string{}
	}
	for _, f := range strings.Fields(cFlagNames) {
		h[f] = "merge compiles the source again from the shard files, without the C flags"
	}
	return h
}
