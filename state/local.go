package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/neonform/neonform/internal/atomicfile"
	"github.com/neonform/neonform/internal/bounded"
)

// Local keeps the state in a JSON file, with a lock file next to it
// (<path>.lock) and the state before the last write in <path>.backup.
type Local struct {
	path string

	mu     sync.Mutex
	heldID string // ID of the lock this Local holds, "" if none

	// beforeRename, when set (by tests), runs after a new file is written and
	// synced but before it replaces target: a failure point for the atomicity tests.
	beforeRename func(target string) error
}

var _ Backend = (*Local)(nil)

// NewLocal returns the backend for the state file at path. Nothing is read or
// created until Read, Write or Lock.
func NewLocal(path string) *Local {
	return &Local{path: path}
}

// Path is the state file.
func (l *Local) Path() string { return l.path }

// LockPath is the lock file: present while someone holds the lock. Next
// to the state file, or to its target when Path is a link (local_path.go).
func (l *Local) LockPath() string { return l.stateFile() + ".lock" }

// BackupPath holds the state as it was before the last write.
func (l *Local) BackupPath() string { return l.stateFile() + ".backup" }

// Describe names the backend for messages.
func (l *Local) Describe() string { return "local file " + l.path }

// Read returns the state in the file, or New() if there is no file.
func (l *Local) Read(ctx context.Context) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path, err := l.target()
	if err != nil {
		return nil, err
	}
	data, err := bounded.Read(path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil
	}
	if err != nil {
		if bounded.Refused(err) {
			return nil, fmt.Errorf("reading the state: %w; a state file is a regular file of at most %s", err, bounded.MiB(MaxFileSize))
		}
		return nil, fmt.Errorf("reading the state: %w", err)
	}
	return decode(ctx, data, "state file "+l.path, l.fix())
}

// MaxFileSize is the largest state neonform reads, from a file, a
// Postgres row or `state push` (docs/limits.md): a state path pointing at
// /dev/zero or a huge file cannot exhaust memory. 10,000 computes are 2.7
// MB, MaxComputes about 100 MB.
const MaxFileSize = 128 << 20

// fix says how to repair a state file neonform cannot read.
func (l *Local) fix() string {
	if _, err := os.Stat(l.BackupPath()); err == nil {
		return fmt.Sprintf("fix it by hand, or restore the state before the last write from %s", l.BackupPath())
	}
	return "fix it by hand, or move it away to start from an empty state (neonform then forgets the computes it managed; import them again)"
}

// Write stores s as the next serial. The previous file is first copied to
// BackupPath; then the new one is written to a temporary file in the same
// directory, synced, and renamed over the old, so a crash at any point leaves
// either the old state or the new one, never a mix.
func (l *Local) Write(ctx context.Context, s *State) error {
	return writeNext(ctx, l, s)
}

// store replaces the stored state with what decide makes of it (nothing
// when decide returns nil), as Write describes: the lock still held, the
// stored state readable, a backup of it, an atomic write. stored is an
// empty State when there is none (exists false).
func (l *Local) store(ctx context.Context, decide func(stored *State, exists bool) (*State, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := l.checkLockStillHeld(); err != nil {
		return err
	}

	path, err := l.target()
	if err != nil {
		return err
	}
	backup, err := follow(l.BackupPath(), "state backup")
	if err != nil {
		return err
	}
	old, err := bounded.Read(path, MaxFileSize)
	exists := err == nil
	var stored *State
	switch {
	case errors.Is(err, fs.ErrNotExist):
		stored = &State{}
	case err != nil:
		return fmt.Errorf("reading the state before writing it: %w", err)
	default:
		if stored, err = decode(ctx, old, "state file "+l.path, l.fix()); err != nil {
			return fmt.Errorf("refusing to overwrite: %w", err)
		}
	}
	next, err := decide(stored, exists)
	if err != nil || next == nil {
		return err
	}
	data, err := encode(next)
	if err != nil {
		return err
	}
	if exists {
		if err := l.writeAtomic(backup, old); err != nil {
			return fmt.Errorf("keeping a backup of the state before writing it: %w", err)
		}
	}
	return l.writeAtomic(path, data)
}

// writeAtomic replaces target with data (internal/atomicfile): a crash at
// any point leaves the old file or the new one. A state or a backup is kept
// only in a regular file: a device, a named pipe or a link to one in its
// place is refused, not replaced.
func (l *Local) writeAtomic(target string, data []byte) error {
	err := atomicfile.WriteBytes(target, data, atomicfile.Options{
		Rule:         "neonform keeps the state and its backup only in regular files: move it away, or set state_path to another file",
		BeforeRename: l.beforeRename,
	})
	var refused *atomicfile.RefusedError
	switch {
	case errors.As(err, &refused):
		return fmt.Errorf("refusing to write the state: %w", err)
	case err != nil:
		return fmt.Errorf("writing %s: %w (the previous file is unchanged)", target, err)
	}
	return nil
}

// checkLockStillHeld refuses a write when this Local took the lock and the
// lock file no longer holds it: someone ran force-unlock, and another run may
// be writing too.
func (l *Local) checkLockStillHeld() error {
	l.mu.Lock()
	id := l.heldID
	l.mu.Unlock()
	if id == "" {
		return nil
	}
	if err := l.CheckLock(context.Background()); err != nil {
		return fmt.Errorf("refusing to write %s: %w; run plan again", l.Describe(), err)
	}
	return nil
}
