package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/neonform/neonform/internal/atomicfile"
	"github.com/neonform/neonform/internal/bounded"
)

// Lock creates LockPath with O_EXCL, holding this process's LockInfo as JSON.
// Creating a file exclusively is atomic on every local file system, so of two
// processes (or two Lock calls in one) exactly one wins; the other gets a
// *LockedError naming the holder. A lock file left by a crash is never removed
// without being asked: ForceUnlock, or deleting the file.
func (l *Local) Lock(ctx context.Context, who string) (unlock func() error, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, err := l.target(); err != nil {
		return nil, err
	}
	// A lock file that is a link to nothing would fail O_EXCL forever, and
	// look like a lock released and taken by others.
	if _, err := follow(l.LockPath(), "state lock"); err != nil {
		return nil, err
	}
	info := newLockInfo(ctx, who)
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')

	// Two tries: the holder may release the lock between our failed create
	// and our read of its file; then the lock is free and we try again.
	for range 2 {
		err := atomicfile.CreateNew(l.LockPath(), data)
		if errors.Is(err, fs.ErrExist) {
			locked, gone := l.lockedError()
			if gone {
				continue
			}
			return nil, locked
		}
		if err != nil {
			return nil, fmt.Errorf("taking the state lock %s: %w; check that its directory exists and is writable", l.LockPath(), err)
		}
		l.mu.Lock()
		l.heldID = info.ID
		l.mu.Unlock()
		l.removeStaleTemps()
		var once sync.Once
		var unlockErr error
		return func() error {
			once.Do(func() { unlockErr = l.unlock(info.ID) })
			return unlockErr
		}, nil
	}
	return nil, fmt.Errorf("the state lock %s was taken and released by others while this run tried to take it; try again", l.LockPath())
}

// removeStaleTemps removes the temporary files of writes of the state and
// its backup that a killed run left behind (.neonform.state.json.tmp-*,
// .neonform.state.json.backup.tmp-*). Under the lock no other run writes
// them; the files of a process that still runs are left alone all the same.
// A file that cannot be removed is harmless, and stays.
func (l *Local) removeStaleTemps() {
	_ = atomicfile.RemoveStale(l.stateFile())
	_ = atomicfile.RemoveStale(l.BackupPath())
}

// lockedError describes the current holder of the lock file; gone is true if
// the file disappeared before it could be read.
func (l *Local) lockedError() (locked *LockedError, gone bool) {
	lp := l.LockPath()
	info, err := readLockFile(lp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true
	}
	e := &LockedError{Path: "lock file " + lp, Remove: "delete " + lp}
	if err != nil {
		// Unreadable (for example cut short by a crash): say so, and how to remove it.
		return e, false
	}
	e.heldBy(info)
	e.Remove = fmt.Sprintf("run %s or delete %s", e.Unlock.Quoted(), lp)
	return e, false
}

func readLockFile(path string) (LockInfo, error) {
	var info LockInfo
	data, err := bounded.Read(path, 1<<20) // a lock file is a few hundred bytes
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return info, fmt.Errorf("lock file %s is not valid JSON: %w", path, err)
	}
	if info.ID == "" {
		return info, fmt.Errorf("lock file %s has no id", path)
	}
	return info, nil
}

// unlock removes the lock file if it still holds lock id. If it holds another
// lock (ours was force-unlocked and someone else took it), it is left alone.
func (l *Local) unlock(id string) error {
	l.mu.Lock()
	if l.heldID == id {
		l.heldID = ""
	}
	l.mu.Unlock()
	if err := l.holds(id); err != nil {
		return fmt.Errorf("releasing the state lock: %w; left it as it is", err)
	}
	if err := os.Remove(l.LockPath()); err != nil {
		return fmt.Errorf("releasing the state lock: %w", err)
	}
	return nil
}

// CheckLock reports whether the lock file still carries the lock this Local took.
func (l *Local) CheckLock(ctx context.Context) error {
	l.mu.Lock()
	id := l.heldID
	l.mu.Unlock()
	if id == "" {
		return fmt.Errorf("this run does not hold the lock of %s", l.Describe())
	}
	if err := l.holds(id); err != nil {
		return fmt.Errorf("%w, so another run may be changing the state", err)
	}
	return nil
}

// holds returns nil when the lock file carries lock id, and otherwise says
// what happened to it.
func (l *Local) holds(id string) error {
	lp := l.LockPath()
	info, err := readLockFile(lp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("this run's lock %s was removed while it ran (force-unlock?): there is no %s", id, lp)
	case err != nil:
		return err
	case info.ID != id:
		return fmt.Errorf("this run's lock %s was removed while it ran (force-unlock?): %s now holds lock %s of %s", id, lp, info.ID, orUnknown(info.Who))
	}
	return nil
}

// ForceUnlock removes the lock with the given ID, for `neonform force-unlock`
// when its holder died. The ID must match, so a lock someone took since the
// user looked is not removed by mistake.
func (l *Local) ForceUnlock(id string) error {
	lp := l.LockPath()
	info, err := readLockFile(lp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s is not locked: there is no lock file %s", l.Describe(), lp)
	case err != nil:
		return fmt.Errorf("%w; if no neonform is running, delete %s", err, lp)
	case info.ID != id:
		return fmt.Errorf("the lock %s has ID %s (held by %s on host %s, pid %d), not %s; nothing was removed", lp, info.ID, orUnknown(info.Who), orUnknown(info.Host), info.PID, id)
	}
	if err := os.Remove(lp); err != nil {
		return fmt.Errorf("removing the lock %s: %w", lp, err)
	}
	return atomicfile.SyncDir(filepath.Dir(lp))
}
