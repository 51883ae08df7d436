// Package registry is the one list of the experts a discovery runs: the
// CLI, relbench and the terminal view take it from here. A new expert is
// its own package under experts/ and one line in New.
//
// The model's expert (experts/model) is not listed: it joins a run when a model is
// configured (orchestrator.Orchestrator.Model).
package registry

import (
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/advice"
	"github.com/discover-db/discover/experts/query"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/rules"
	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
)

// New returns a fresh instance of every expert, in the order they plan
// (each round, tasks run in this order unless a model ranks them).
func New() []experts.Expert {
	return []experts.Expert{
		structural.New(),
		relations.New(),
		statistical.New(),
		semantic.New(),
		rules.New(),
		query.New(),
		advice.New(), // after query: it waits for the round's experts.ClaimsTested
	}
}

// Names are the experts' names, in New's order.
func Names() []string {
	xs := New()
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Name()
	}
	return out
}
