package main

// What the commands read and write, in one place: standard input for "-",
// atomic file writes that never replace an input, and standard output
// whose write errors change the exit code (issue 29, items 3, 4, 5, 10).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/pgasrob/pgasrob/pgas"
	"github.com/pgasrob/pgasrob/pgas/cfront"
)

// stdinName stands for "-" in messages, positions and JSON.
const stdinName = "<standard input>"

// stdin is os.Stdin except in tests.
var stdin io.Reader = os.Stdin

// inputName is how a FILE argument is named in output.
func inputName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// readSource reads a program: "-" is standard input, anything else a
// regular file (a fifo or a device is refused without blocking, see
// pgas.ReadLimited); both are held to pgas.MaxSourceBytes.
func readSource(path string) ([]byte, error) {
	if path != "-" {
		return pgas.ReadSource(path)
	}
	b, err := io.ReadAll(io.LimitReader(stdin, pgas.MaxSourceBytes+1))
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: stdinName, Err: err}
	}
	if int64(len(b)) > pgas.MaxSourceBytes {
		return nil, &os.PathError{Op: "read", Path: stdinName, Err: fmt.Errorf("larger than %d MiB, the limit for a program", pgas.MaxSourceBytes>>20)}
	}
	return b, nil
}

// loadProgram is pgas.Load with "-" read from standard input, and a C
// file (by its .c extension) translated by pgas/cfront.
func loadProgram(path string) (*pgas.Program, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	return compileProgram(inputName(path), src)
}

// compileProgram compiles a program for every command: a .c file is C
// with OpenSHMEM (docs/shmem.md), anything else .pgas.
func compileProgram(name string, src []byte) (*pgas.Program, error) {
	if cfront.IsC(name) {
		return cfront.Compile(name, src, cOptions)
	}
	return pgas.Compile(name, src)
}

// readProgramSources reads the programs of a --dir: its .pgas and .c
// files, in name order.
func readProgramSources(dir string, stderr io.Writer) ([]sourceFile, bool) {
	pg, _ := filepath.Glob(filepath.Join(dir, "*.pgas"))
	c, _ := filepath.Glob(filepath.Join(dir, "*.c"))
	files := append(pg, c...)
	if len(files) == 0 {
		fmt.Fprintf(stderr, "pgasrob difftest: no .pgas files in %s (nor .c files)\n", dir)
		return nil, false
	}
	return readSourceFiles(files, stderr)
}

// readSourceFiles reads files in name order, for difftest --dir.
func readSourceFiles(files []string, stderr io.Writer) ([]sourceFile, bool) {
	sort.Strings(files)
	var out []sourceFile
	for _, f := range files {
		b, err := pgas.ReadSource(f)
		if err != nil {
			fmt.Fprintln(stderr, "pgasrob difftest:", err)
			return nil, false
		}
		out = append(out, sourceFile{f, string(b)})
	}
	return out, true
}

// writeOutput writes data to path: "-" is stdout, anything else is
// written atomically (see writeAtomic) and must not be one of the inputs,
// which an overwrite would destroy before it is read again or compared.
func writeOutput(path string, data []byte, stdout io.Writer, inputs ...string) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if err := notAnInput(path, inputs); err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// notAnInput refuses an output that is an input under another name too
// (a link, "./F"): what counts is the file, not the spelling.
func notAnInput(path string, inputs []string) error {
	out, err := os.Stat(path)
	if err != nil {
		return nil // not there yet: no input can be it
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if st, err := os.Stat(in); err == nil && os.SameFile(st, out) {
			return fmt.Errorf("%s: refusing to overwrite the input %s; write to another file", path, in)
		}
	}
	return nil
}

// writeAtomic replaces path by a file holding data, so that a reader (or
// a crash) sees the old file or the new one, never a truncated mix: a
// temporary file in the same directory, synced, then renamed. A symbolic
// link is followed, so that the link stays. What is not a regular file
// (/dev/null, a terminal) cannot be renamed over and is written in place.
func writeAtomic(path string, data []byte) error {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		if !st.Mode().IsRegular() {
			return writeInPlace(target, data)
		}
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return &os.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
	}
	// The rename is durable once the directory is synced; where a
	// directory cannot be synced, the file is written all the same.
	if d, err := os.Open(filepath.Dir(target)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

func writeInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// unwrapPath drops the temporary file's name from an error, which would
// only confuse: the user named path.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// checkedWriter passes writes on and keeps the first error, so that a
// command whose output was lost (a full disk, /dev/full, a closed pipe)
// cannot end as if it had been written.
type checkedWriter struct {
	mu  sync.Mutex // a command may print from more than one goroutine
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// runProcess is run on the process's own standard output: a failed write
// or close of it is an error, exit 2 (4 stays 4), whatever the command
// found. A shard that printed nothing must not look like one that did.
func runProcess(args []string, stdout *os.File, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := run(args, out, stderr)
	err := out.err
	if cerr := stdout.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "pgasrob: the output is lost: %v\n", err)
		if code != exitInternal {
			code = exitUsage
		}
	}
	return code
}
