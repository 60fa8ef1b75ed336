//go:build unix

package state

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A backup that is not a regular file (here a named pipe, which reports size
// 0) is refused, not replaced, and the state is not written.
func TestLocalWriteRefusesABackupThatIsNotARegularFile(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	s := sampleState()
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("mkfifo", l.BackupPath()).Run(); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	before, _ := os.ReadFile(l.Path())
	err := l.Write(ctx, s)
	want := l.BackupPath() + " is a named pipe; neonform keeps the state and its backup only in regular files"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Write = %v, want %q", err, want)
	}
	if info, err := os.Lstat(l.BackupPath()); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v %v", info, err)
	}
	if after, _ := os.ReadFile(l.Path()); string(after) != string(before) {
		t.Errorf("the state was written")
	}
}

// Temporary files that a killed apply left (of the state and of its backup)
// are removed when the lock is taken; those of a running process stay.
func TestLocalLockRemovesTemporaryFilesOfKilledWrites(t *testing.T) {
	dir := t.TempDir()
	l := NewLocal(filepath.Join(dir, "neonform.state.json"))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead, alive := cmd.Process.Pid, os.Getpid()
	left := []string{
		fmt.Sprintf(".neonform.state.json.tmp-%d-1", dead),
		fmt.Sprintf(".neonform.state.json.backup.tmp-%d-2", dead),
		".neonform.state.json.backup.tmp-3141592", // an older neonform's
	}
	kept := fmt.Sprintf(".neonform.state.json.backup.tmp-%d-4", alive)
	for _, name := range append(left, kept) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	unlock, err := l.Lock(context.Background(), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for _, name := range left {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s is still there", name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, kept)); err != nil {
		t.Errorf("the file of a running process was removed: %v", err)
	}
}
