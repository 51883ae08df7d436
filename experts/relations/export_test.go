package relations

// SetStreamCheckMinRows sets the child table size from which checks are
// streamed (streamcheck.go) until the returned function restores it.
func SetStreamCheckMinRows(n int64) (restore func()) {
	old := streamCheckMinRows
	streamCheckMinRows = n
	return func() { streamCheckMinRows = old }
}
