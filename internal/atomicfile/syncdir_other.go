//go:build !unix

package atomicfile

// SyncDir is a no-op where directories cannot be opened for syncing (Windows).
func SyncDir(dir string) error { return nil }
