package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A state path may be a symbolic link (to a state kept on a shared disk, or
// in another checkout). neonform then reads and writes the file it points
// to: the temporary file of an atomic write goes in the target's directory
// and is renamed over the target, so the link stays a link and the target
// never goes stale. The backup and the lock file sit next to the target, so
// that two configurations linking to one state also share its lock. A link
// whose target does not exist is an error naming both: reading it as "no
// state yet" would make apply adopt and rename endpoints that another state
// already manages.

// target is the state file itself: path, or where the link at path points.
func (l *Local) target() (string, error) {
	return follow(l.path, "state file")
}

// stateFile is target for messages and derived names: the path itself when
// the link cannot be followed (the operation that needs it then fails).
func (l *Local) stateFile() string {
	if t, err := l.target(); err == nil {
		return t
	}
	return l.path
}

// follow returns path, or, if path is a symbolic link, the file it finally
// points to. A path that does not exist yet is returned as it is.
func follow(path, what string) (string, error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the %s %s: %w", what, path, err)
	}
	if info.Mode()&os.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err == nil {
		return target, nil
	}
	to, _ := os.Readlink(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("the %s %s is a symbolic link to %s, which does not exist. neonform reads and writes the %s through the link and will not start a new one in its place: "+
			"restore %s, point the link at the right file, or remove the link", what, path, to, what, to)
	}
	return "", fmt.Errorf("the %s %s is a symbolic link (to %s) that cannot be followed: %w", what, path, to, err)
}
