//go:build race

package experts_test

const raceEnabled = true
