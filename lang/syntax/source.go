package syntax

import (
	"io"
	"os"
)

// ReadSource reads a script from r, but no more than one byte past
// MaxSourceBytes: a longer script (or an endless stream such as
// /dev/zero) is cut there, and Parse reports it as too long, with a
// position, without its whole text ever being held in memory.
func ReadSource(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, MaxSourceBytes+1))
}

// ReadSourceFile is ReadSource of the named file.
func ReadSourceFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadSource(f)
}
