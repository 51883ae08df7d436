package prompts

// Ask is a user's question about the database, answered with one query.
type Ask struct {
	Question string
	Schema   Schema
}

// AskFix asks for a corrected answer query after the controller found a
// problem with the last one.
type AskFix struct {
	Dialect  string
	Question string
	SQL      string
	Problem  string
	Tables   []Table
}
