//go:build unix

package filebudget

import (
	"os"
	"syscall"
	"time"

	"github.com/neonform/neonform/internal/atomicfile"
)

// pruneFile removes the budget file at path if it is a regular file (not a
// link: O_NOFOLLOW; nothing else: atomicfile.OpenRegular) that no
// run wrote to for keepUnused, and no run holds its lock: taken without
// waiting, the lock keeps a run from writing while it goes, and the age is
// checked again under it. A run that opened the file just before finds it
// gone once it holds the lock, and opens a new one (Open).
func pruneFile(path string, now time.Time) {
	f, err := atomicfile.OpenRegular(path, os.O_RDONLY|syscall.O_NOFOLLOW, atomicfile.Options{})
	if err != nil {
		return
	}
	defer f.Close() // and so unlocks it
	if !unused(f, now) || syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil || !unused(f, now) {
		return
	}
	if at, err := os.Lstat(path); err == nil && names(path, f) && at.Mode().IsRegular() {
		os.Remove(path)
	}
}

// unused is whether f is a regular file no run wrote to for keepUnused.
func unused(f *os.File, now time.Time) bool {
	info, err := f.Stat()
	return err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) >= keepUnused
}
