package model

// The test of the expert in a run (expert_test.go) drives the orchestrator,
// which imports this package; it lives in package model_test and borrows
// these helpers.
var (
	ShopT = shopT
	Setup = setup
	Args  = args
)
