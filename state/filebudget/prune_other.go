//go:build !unix

package filebudget

import "time"

// pruneFile leaves the file: without file locks (flock_other.go) no run
// shares one, and none can tell whether another is using it.
func pruneFile(string, time.Time) {}
