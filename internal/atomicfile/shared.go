package atomicfile

import (
	"os"
	"syscall"

	"github.com/neonform/neonform/internal/bounded"
)

// OpenShared opens the file at path (or the regular file a link there
// points to) for reading and writing in place, creating it (0600) if
// missing: a file several processes share under a lock of the file
// (flock), which a rename would take from under them, so Write cannot
// serve it. What it may be is Target's rule: a device, a named pipe, a
// socket, a link to one or to nothing is refused, and checked again once
// open, in case it was swapped in between. O_NONBLOCK keeps a pipe swapped
// in from blocking the open before that check (it changes nothing for a
// regular file).
func OpenShared(path string, o Options) (*os.File, error) {
	target, err := Target(path, o)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(target, os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &RefusedError{Path: path, What: bounded.Kind(info.Mode()), Rule: o.Rule}
		}
		return nil, err
	}
	return f, nil
}
