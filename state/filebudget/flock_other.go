//go:build !unix

package filebudget

import (
	"errors"
	"os"
)

// lockFile fails where file locks are not implemented: the run keeps its
// own budget.
func lockFile(*os.File) error {
	return errors.New("sharing the rate budget through a file is implemented on unix systems only")
}

func unlockFile(*os.File) error { return nil }
