// Package naming reads the names a schema gives its tables and columns: it
// splits identifiers into words, renders table names as prose nouns, and
// resolves a name written somewhere other than the source's own listing (a
// declared reference, discover.yaml, a model's answer) to the table or
// column it means. The experts, the orchestrator and the commands share it
// so that one name is read one way throughout a run.
package naming
