package cycles

// StreamAbove makes decisions stream their cycle types (stream_run.go)
// whenever N has more than limit of them, until the returned function
// restores the limit: the tests compare the streamed decision with the
// listed one at small N.
func StreamAbove(limit int64) (restore func()) {
	old := listLimit
	listLimit = limit
	return func() { listLimit = old }
}
