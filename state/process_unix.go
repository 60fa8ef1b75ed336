//go:build unix

package state

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether process pid exists on this host. known is
// false when that cannot be told.
func processAlive(pid int) (alive, known bool) {
	if pid <= 0 {
		return false, false
	}
	err := syscall.Kill(pid, 0) // signal 0: only checks that the process exists
	switch {
	case err == nil, errors.Is(err, syscall.EPERM): // EPERM: exists, owned by someone else
		return true, true
	case errors.Is(err, syscall.ESRCH):
		return false, true
	}
	return false, false
}

// syncDir makes a rename or create in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		// EINVAL/ENOTSUP: the file system cannot sync directories; nothing more can be done.
		return err
	}
	return nil
}
