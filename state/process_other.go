//go:build !unix

package state

// processAlive cannot tell on this system; locks are then never called stale.
func processAlive(pid int) (alive, known bool) { return false, false }

// syncDir is a no-op where directories cannot be opened for syncing (Windows).
func syncDir(dir string) error { return nil }
