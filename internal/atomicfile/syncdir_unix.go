//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// SyncDir makes a rename or a create in dir durable.
func SyncDir(dir string) error {
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
