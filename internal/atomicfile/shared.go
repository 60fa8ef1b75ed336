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
// open (OpenRegular), in case it was swapped in between.
func OpenShared(path string, o Options) (*os.File, error) {
	target, err := Target(path, o)
	if err != nil {
		return nil, err
	}
	return OpenRegular(target, os.O_RDWR|os.O_CREATE, o)
}

// OpenRegular opens path with flag (created 0600 with os.O_CREATE) and
// returns it only if what it opened is a regular file: anything else is
// closed and refused, saying what it is. O_NONBLOCK, added, keeps a named
// pipe from blocking the open before that check (it changes nothing for a
// regular file). For a file neonform keeps open in place or removes under
// its lock; a file it writes whole goes through Write.
func OpenRegular(path string, flag int, o Options) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, 0o600)
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
