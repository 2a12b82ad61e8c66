package automata

import "sync/atomic"

// Pressure is a signal shared by the searches of one process: the
// process's memory, as its owner measures it (pgasrob's memory guard
// reads the Go heap and the resident set), nears its budget. A search
// with CacheOverflow freezes its visited set as soon as it sees the
// signal, whatever its own share says, and the recomputable tables
// beside it (cycles' move table and memos) stop growing or shrink. The
// signal only moves work from memory to time: a search that sees it
// answers exactly as it would without it (overflow.go), so when the
// owner sets it does not matter for soundness.
//
// The zero Pressure is off; a nil *Pressure is never on.
type Pressure struct{ on atomic.Bool }

// Set turns the signal on or off.
func (p *Pressure) Set(on bool) { p.on.Store(on) }

// On reports whether the signal is on.
func (p *Pressure) On() bool { return p != nil && p.on.Load() }
