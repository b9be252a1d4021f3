package interp

import (
	"os"
	"syscall"
)

// fallocKeepSize is FALLOC_FL_KEEP_SIZE: reserve blocks, leave the size.
const fallocKeepSize = 1

func preallocate(f *os.File, off, n int64) error {
	return syscall.Fallocate(int(f.Fd()), fallocKeepSize, off, n)
}
