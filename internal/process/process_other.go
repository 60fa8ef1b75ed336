//go:build !unix

package process

// Alive cannot tell on this system: known is false, and callers then treat
// the process as possibly alive (a lock is never called stale, a temporary
// file is never removed).
func Alive(pid int) (alive, known bool) { return false, false }
