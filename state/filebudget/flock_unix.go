//go:build unix

package filebudget

import (
	"errors"
	"os"
	"syscall"
)

// lockFile waits for an exclusive lock of f, which every run of the account
// takes before it reads the file.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
