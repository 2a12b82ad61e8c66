package automata

import (
	"fmt"
	"math/bits"
)

// A State is a packed state: a fixed number of 64-bit words whose meaning is
// given by the System that produced it. The search copies states it keeps, so
// a System may reuse one buffer for all the states it emits.
type State []uint64

// A Field is a run of bits inside a packed State. Fields never straddle two
// words, which keeps Get and Set to one shift and one mask.
type Field struct {
	word  int
	shift uint
	mask  uint64
}

// Get returns the field's value in s.
func (f Field) Get(s State) uint64 { return (s[f.word] >> f.shift) & f.mask }

// Set stores v (which must fit) into s.
func (f Field) Set(s State, v uint64) {
	s[f.word] = s[f.word]&^(f.mask<<f.shift) | (v&f.mask)<<f.shift
}

// Max is the largest value the field can hold.
func (f Field) Max() uint64 { return f.mask }

// A Layout hands out Fields in order, packing them into as few words as it
// can without splitting a field.
type Layout struct {
	words int
	used  uint // bits used in the last word
}

// BitsFor returns the number of bits needed to store values 0..n-1 (at least
// one bit, so that every declared field has a place).
func BitsFor(n int) int {
	if n <= 2 {
		return 1
	}
	return bits.Len(uint(n - 1))
}

// Field reserves a field of the given width (1..64 bits).
func (l *Layout) Field(width int) Field {
	if width < 1 || width > 64 {
		panic(fmt.Sprintf("automata: field width %d out of 1..64", width))
	}
	if l.words == 0 || l.used+uint(width) > 64 {
		l.words++
		l.used = 0
	}
	f := Field{word: l.words - 1, shift: l.used, mask: (1<<uint(width) - 1)}
	if width == 64 {
		f.mask = ^uint64(0)
	}
	l.used += uint(width)
	return f
}

// Fields reserves n fields of the same width.
func (l *Layout) Fields(n, width int) []Field {
	fs := make([]Field, n)
	for i := range fs {
		fs[i] = l.Field(width)
	}
	return fs
}

// Words is the number of words a State of this layout needs (at least one).
func (l *Layout) Words() int {
	if l.words == 0 {
		return 1
	}
	return l.words
}

// Bits is the number of bits actually used, for reports.
func (l *Layout) Bits() int {
	if l.words == 0 {
		return 0
	}
	return (l.words-1)*64 + int(l.used)
}

// Align makes the next field start a new word, so that a prefix of the
// state's words holds exactly the fields reserved so far (useful as a cache
// key for one component of a product state).
func (l *Layout) Align() {
	if l.words > 0 {
		l.used = 64
	}
}
