package cycles

// WithoutHelper returns opt with the shared exploration's per-type helper
// turned off, so that a test compares the shared search alone with the
// per-type search.
func WithoutHelper(opt Options) Options {
	opt.noHelper = true
	return opt
}
