// Package atomicfile writes the files neonform keeps (a saved plan, the state
// and its backup, the emulator's and the sandbox's world) in one way: a
// temporary file in the same directory, synced, then renamed over the old
// one, so that a crash leaves the old file or the new one, never half of one.
//
// It replaces only what it may: a regular file, or the regular file a
// symbolic link points to (the link stays a link). A directory, a device, a
// named pipe or a socket, or a link to one or to nothing, is refused whatever
// its size, naming what it is; a writer can refuse regular files too (-out
// replaces only a plan or an empty file). See docs/security.md.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/neonform/neonform/internal/bounded"
)

// Options say who writes and what it may replace.
type Options struct {
	// Rule ends a refusal: what the writer writes and what to do instead,
	// e.g. "-out writes only regular files: choose another path".
	Rule string
	// Replace, if set, says whether the regular file at target, which
	// exists, may be replaced: nil if it may. Without it any regular file may.
	Replace func(target string, info fs.FileInfo) error
	// Mode is the new file's permissions; 0 is 0600, readable by its owner
	// only (a plan, a state and a world file hold what others should not
	// read). fmt keeps the mode the file had.
	Mode fs.FileMode
	// BeforeRename, when set (by tests), runs after the new file is written
	// and synced, before it replaces target: a failure point.
	BeforeRename func(target string) error
}

// RefusedError is a path a write will not replace: what it is, and the
// writer's rule.
type RefusedError struct {
	Path string
	// What the path is: "a character device", "a symbolic link to
	// /dev/null, a character device".
	What string
	Rule string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s is %s; %s", e.Path, e.What, e.Rule)
}

// Target is the file a write of path replaces or creates: path itself, or
// the file the symbolic link at path finally points to. It refuses what
// Options say may not be replaced (a *RefusedError, or Replace's error).
func Target(path string, o Options) (string, error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	target, what := path, ""
	if info.Mode()&os.ModeSymlink != 0 {
		to, _ := os.Readlink(path)
		if target, err = filepath.EvalSymlinks(path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", &RefusedError{Path: path, What: "a symbolic link to " + to + ", which does not exist", Rule: o.Rule}
			}
			return "", fmt.Errorf("%s is a symbolic link (to %s) that cannot be followed: %w", path, to, err)
		}
		if info, err = os.Stat(target); err != nil {
			return "", err
		}
		what = "a symbolic link to " + to + ", "
	}
	if !info.Mode().IsRegular() {
		return "", &RefusedError{Path: path, What: what + bounded.Kind(info.Mode()), Rule: o.Rule}
	}
	if o.Replace != nil {
		if err := o.Replace(target, info); err != nil {
			return "", err
		}
	}
	return target, nil
}

// Check makes sure a file can be written at path, before the work that makes
// its content: Target accepts path, and its directory takes a new file.
func Check(path string, o Options) error {
	target, err := Target(path, o)
	if err != nil {
		return err
	}
	f, err := createTemp(target)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// WriteBytes replaces the file at path with data, as Write does.
func WriteBytes(path string, data []byte, o Options) error {
	return Write(path, o, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write replaces the file at path (or the one the link at path points to)
// with what write writes, with Options.Mode (0600 by default): a temporary file
// in the target's directory, so the rename stays on one file system; write,
// fsync, rename, fsync of the directory, so the rename itself survives a
// crash. Until the rename the old file is untouched.
func Write(path string, o Options, write func(io.Writer) error) error {
	target, err := Target(path, o)
	if err != nil {
		return err
	}
	f, err := createTemp(target)
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	mode := o.Mode
	if mode == 0 {
		mode = 0o600
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if o.BeforeRename != nil {
		if err := o.BeforeRename(target); err != nil {
			return err
		}
	}
	// Once more, just before: the path may have become something else while
	// the file was written.
	if again, err := Target(path, o); err != nil {
		return err
	} else if again != target {
		return fmt.Errorf("%s changed while it was written (it now leads to %s); nothing was replaced, try again", path, again)
	}
	if err := os.Rename(f.Name(), target); err != nil {
		return err
	}
	renamed = true
	if err := SyncDir(filepath.Dir(target)); err != nil {
		return fmt.Errorf("wrote %s but could not sync its directory, so a crash now could lose the write: %w", target, err)
	}
	return nil
}

// createTemp makes the temporary file of a write of target, named after
// target and this process: .state.json.tmp-<pid>-<random>, so that
// RemoveStale can tell a file a running process is about to rename from one
// a killed process left behind.
func createTemp(target string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(target), tempPrefix(target)+strconv.Itoa(os.Getpid())+"-*")
}

// tempPrefix starts the names of the temporary files of writes of path.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }
