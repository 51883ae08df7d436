//go:build race

package heavy

const race = true
