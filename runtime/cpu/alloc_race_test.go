//go:build race

package cpu

// raceEnabled reports a -race build: the race detector's instrumentation
// allocates, so allocation-count tests skip under it.
const raceEnabled = true
