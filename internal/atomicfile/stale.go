package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/neonform/neonform/internal/process"
)

// RemoveStale removes the temporary files that writes of path left behind
// when their process was killed before the rename (a write removes its own
// when it fails). A file of a process that still runs is left alone: it may
// be about to rename it (two runs sharing one sandbox). So is one whose
// process cannot be told, except a name without a process, from a neonform
// that did not name them so.
func RemoveStale(path string) error {
	dir, prefix := filepath.Dir(path), tempPrefix(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // no directory yet: nothing left behind, and the first write says why it fails
	}
	for _, entry := range entries {
		name := entry.Name()
		if !entry.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !stale(strings.TrimPrefix(name, prefix)) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s, left behind by an interrupted write of %s: %w", filepath.Join(dir, name), path, err)
		}
	}
	return nil
}

// stale reports whether the temporary file whose name ends in suffix
// (<pid>-<random>, or <random> from an older neonform) belongs to no
// running process.
func stale(suffix string) bool {
	pid, _, named := strings.Cut(suffix, "-")
	if !named {
		return true
	}
	n, err := strconv.Atoi(pid)
	if err != nil {
		return false // not a name this package makes
	}
	alive, known := process.Alive(n)
	return known && !alive
}
