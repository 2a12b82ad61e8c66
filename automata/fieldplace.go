package automata

// Place is where the field lies: its word, the shift of its lowest bit
// and its mask (a run of low bits), for code that moves several adjacent
// fields at once (cycles' renamings of ranks).
func (f Field) Place() (word int, shift uint, mask uint64) { return f.word, f.shift, f.mask }
