//go:build !race

package cuda

// raceEnabled reports a -race build (see race_test.go).
const raceEnabled = false
