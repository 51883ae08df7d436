package statistical

// SetSketchValuesPerStatement sets the values one sketch statement may
// hash, for tests of large tables on small ones, and returns the undo.
func SetSketchValuesPerStatement(n int64) func() {
	old := sketchValuesPerStatement
	sketchValuesPerStatement = n
	return func() { sketchValuesPerStatement = old }
}
