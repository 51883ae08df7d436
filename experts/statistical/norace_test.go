//go:build !race

package statistical_test

const raceEnabled = false
