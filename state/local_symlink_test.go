package state

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkedState is a configuration directory whose state file is a symbolic
// link (relative, as people write them) to a state kept in another directory.
func linkedState(t *testing.T) (link, target string) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"config", "shared"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link = filepath.Join(root, "config", "neonform.state.json")
	if err := os.Symlink(filepath.Join("..", "shared", "state.json"), link); err != nil {
		t.Fatal(err)
	}
	return link, filepath.Join(root, "shared", "state.json")
}

func isLink(t *testing.T, path string) bool {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode()&os.ModeSymlink != 0
}

func TestLocalWritesThroughASymlinkToItsTarget(t *testing.T) {
	ctx := context.Background()
	link, target := linkedState(t)

	// A first state, written where the link points: the link stays a link.
	if err := NewLocal(target).Write(ctx, New()); err != nil {
		t.Fatal(err)
	}
	l := NewLocal(link)
	unlock, err := l.Lock(ctx, "test")
	if err != nil {
		t.Fatal(err)
	}
	// The lock sits next to the target, where a second configuration linking
	// to the same state looks for it.
	if _, err := os.Stat(target + ".lock"); err != nil {
		t.Errorf("no lock next to the target: %v", err)
	}
	if _, err := NewLocal(target).Lock(ctx, "other"); err == nil {
		t.Error("a run using the target directly could take the lock too")
	}
	s, err := l.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.Computes = sampleState().Computes
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}

	if !isLink(t, link) {
		t.Fatal("the write replaced the link with a file")
	}
	got, err := NewLocal(target).Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Serial != 2 || len(got.Computes) != 2 {
		t.Errorf("the target holds serial %d with %d computes, want the write (serial 2, 2 computes)", got.Serial, len(got.Computes))
	}
	if _, err := os.Stat(target + ".backup"); err != nil {
		t.Errorf("no backup next to the target: %v", err)
	}
	// Nothing was left in the link's directory: no temporary file, no backup, no lock.
	entries, _ := os.ReadDir(filepath.Dir(link))
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the link's directory holds %v, want the link alone", names)
	}
}

func TestLocalDanglingSymlinkIsAnErrorNamingBoth(t *testing.T) {
	ctx := context.Background()
	link, target := linkedState(t)
	l := NewLocal(link)
	check := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s through a link to nothing: no error", what)
		}
		for _, want := range []string{link, filepath.Join("..", "shared", "state.json"), "does not exist"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not name %s", what, err, want)
			}
		}
	}
	_, err := l.Read(ctx)
	check("Read", err)
	_, err = l.Lock(ctx, "test")
	check("Lock", err)
	check("Write", l.Write(ctx, New()))
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the target was created: %v", err)
	}
	if !isLink(t, link) {
		t.Error("the link was replaced")
	}
	if _, err := os.Lstat(link + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a lock file was left: %v", err)
	}
}

func TestLocalLockFileThatIsASymlink(t *testing.T) {
	ctx := context.Background()
	path := statePath(t)
	l := NewLocal(path)

	// A link to nothing: an error naming both, not "taken and released by others".
	if err := os.Symlink("elsewhere.lock", l.LockPath()); err != nil {
		t.Fatal(err)
	}
	_, err := l.Lock(ctx, "test")
	if err == nil || !strings.Contains(err.Error(), l.LockPath()) || !strings.Contains(err.Error(), "elsewhere.lock, which does not exist") {
		t.Fatalf("got %v", err)
	}

	// A link to a lock someone holds: the lock is held, and says by whom.
	other := NewLocal(filepath.Join(filepath.Dir(path), "other.json"))
	unlock, err := other.Lock(ctx, "the other run")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	os.Remove(l.LockPath())
	if err := os.Symlink("other.json.lock", l.LockPath()); err != nil {
		t.Fatal(err)
	}
	_, err = l.Lock(ctx, "test")
	var locked *LockedError
	if !errors.As(err, &locked) || locked.Info.Who != "the other run" {
		t.Errorf("got %v, want the lock held by the other run", err)
	}
}
