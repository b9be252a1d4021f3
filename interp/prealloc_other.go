//go:build !linux

package interp

import (
	"errors"
	"os"
)

// preallocate has no portable form outside Linux; writes then allocate
// as they go.
func preallocate(*os.File, int64, int64) error { return errors.ErrUnsupported }
