//go:build !race

package cpu

// raceEnabled reports a -race build (see alloc_race_test.go).
const raceEnabled = false
