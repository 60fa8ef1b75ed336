//go:build unix

package process

import (
	"errors"
	"syscall"
)

// Alive reports whether process pid exists on this host. known is false when
// that cannot be told.
func Alive(pid int) (alive, known bool) {
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
