//go:build unix

package filebudget_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/neonform/neonform/state/filebudget"
	"github.com/neonform/neonform/state/internal/budgettest"
	"github.com/neonform/neonform/state/pgbudget"
)

// Opening an account's budget removes the other accounts' files that no
// run wrote to for a week and no run holds the lock of; nothing else: not a
// file written to within the week, nor one a run holds locked, nor a file
// neonform does not name so, nor a link (or what it points to), a named
// pipe or a directory under a budget file's name.
func TestOpenPrunesOnlyUnusedBudgetFiles(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	dir := filepath.Join(cache, "neonform")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	name := func(key string) string {
		return filepath.Join(dir, "budget-"+pgbudget.Account("https://api", key)+".json")
	}
	old := time.Now().Add(-8 * 24 * time.Hour)
	files := map[string]time.Time{
		name("gone"): old, name("recent"): time.Now().Add(-6 * 24 * time.Hour), name("held"): old,
		filepath.Join(dir, "notes.json"): old, filepath.Join(dir, "budget-abc.json"): old,
		filepath.Join(cache, "elsewhere.json"): old, name("own"): old,
	}
	for path, mtime := range files {
		if err := os.WriteFile(path, []byte(`{"spent":[]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	held, err := os.Open(name("held"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(cache, "elsewhere.json"), name("link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(name("fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(name("dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{name("fifo"), name("dir")} {
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	b := filebudget.OpenAccount("https://api", "own", budgettest.WindowLimits, func(msg string) { t.Errorf("unexpected warning: %s", msg) })
	b.Close()
	if _, err := os.Lstat(name("gone")); !os.IsNotExist(err) {
		t.Errorf("a budget file unused for 8 days is still there: %v", err)
	}
	for _, path := range []string{name("recent"), name("held"), filepath.Join(dir, "notes.json"), filepath.Join(dir, "budget-abc.json"),
		filepath.Join(cache, "elsewhere.json"), name("own"), name("link"), name("fifo"), name("dir")} {
		if _, err := os.Lstat(path); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(path), err)
		}
	}
}
