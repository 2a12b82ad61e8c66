package repair

import "github.com/pgasrob/pgasrob/pgas"

// The search space of a repair, opened up for the tests: the candidates
// and the text of a set of them, without a search.

// Candidates lists the insertions of the vocabulary for the program in
// src (before any is checked to compile).
func Candidates(file string, src []byte) ([]Candidate, error) {
	p, err := pgas.Compile(file, src)
	if err != nil {
		return nil, err
	}
	return analyse(p).candidates(), nil
}

// Apply writes src with the insertions of set, as Repair does.
func Apply(file string, src []byte, set []Candidate) ([]byte, error) {
	p, err := pgas.Compile(file, src)
	if err != nil {
		return nil, err
	}
	ed, err := analyse(p).apply(src, set)
	if err != nil {
		return nil, err
	}
	return ed.src, nil
}
