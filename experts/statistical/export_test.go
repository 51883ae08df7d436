package statistical

// SetSketchValuesPerStatement sets the values one sketch statement may
// hash, for tests of large tables on small ones, and returns the undo.
func SetSketchValuesPerStatement(n int64) func() {
	old := sketchValuesPerStatement
	sketchValuesPerStatement = n
	return func() { sketchValuesPerStatement = old }
}

// SetMaxStreamCells sets the cells one streamed pass may hold, for tests
// of wide tables on small ones, and returns the undo.
func SetMaxStreamCells(n int64) func() {
	old := maxStreamCells
	maxStreamCells = n
	return func() { maxStreamCells = old }
}
