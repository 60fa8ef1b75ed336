package state

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestLocalSecondLockFailsNamingTheHolder(t *testing.T) {
	ctx := WithOperation(context.Background(), "apply")
	l := NewLocal(statePath(t))
	unlock, err := l.Lock(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()

	for _, other := range []*Local{l, NewLocal(l.Path())} {
		_, err := other.Lock(ctx, "bob")
		var le *LockedError
		if !errors.As(err, &le) {
			t.Fatalf("second Lock = %v, want a *LockedError", err)
		}
		host, _ := os.Hostname()
		if le.Info.Who != "alice" || le.Info.PID != os.Getpid() || le.Info.Host != host || le.Info.Operation != "apply" || le.Stale {
			t.Errorf("LockedError.Info = %+v (stale %v), want alice's live lock from this process", le.Info, le.Stale)
		}
		for _, w := range []string{"alice", host, l.LockPath(), "apply", le.Info.ID, "force-unlock"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("message %q does not mention %q", err, w)
			}
		}
	}
}

func TestLocalLockFileSaysWhoHoldsIt(t *testing.T) {
	l := NewLocal(statePath(t))
	unlock, err := l.Lock(WithOperation(context.Background(), "import"), "carol")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	st, err := os.Stat(l.LockPath())
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("lock file mode %v, want 0600", st.Mode().Perm())
	}
	data, _ := os.ReadFile(l.LockPath())
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatalf("lock file is not JSON: %v\n%s", err, data)
	}
	for _, k := range []string{"id", "who", "host", "pid", "since", "operation"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("lock file has no %q: %s", k, data)
		}
	}
	if fields["who"] != "carol" || fields["operation"] != "import" || fields["pid"] != float64(os.Getpid()) {
		t.Errorf("lock file = %s", data)
	}
}

func TestLocalUnlockReleasesTheLock(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	unlock, err := l.Lock(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.LockPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file still there after unlock: %v", err)
	}
	if err := unlock(); err != nil {
		t.Errorf("second unlock = %v, want the first's result", err)
	}
	unlock2, err := NewLocal(l.Path()).Lock(ctx, "bob")
	if err != nil {
		t.Fatalf("Lock after unlock = %v", err)
	}
	unlock2()
}

// CheckLock says whether the lock file still carries this run's lock: not
// once force-unlock removed it, nor once another run took it since.
func TestLocalCheckLock(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	if err := l.CheckLock(ctx); err == nil || !strings.Contains(err.Error(), "does not hold the lock") {
		t.Errorf("CheckLock before Lock = %v", err)
	}
	unlock, err := l.Lock(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if err := l.CheckLock(ctx); err != nil {
		t.Fatalf("CheckLock while holding the lock = %v", err)
	}
	other := NewLocal(l.Path())
	_, err = other.Lock(ctx, "bob")
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("Lock = %v", err)
	}
	if err := other.ForceUnlock(le.Info.ID); err != nil {
		t.Fatal(err)
	}
	if err := l.CheckLock(ctx); err == nil || !strings.Contains(err.Error(), "was removed while it ran (force-unlock?)") {
		t.Errorf("CheckLock after force-unlock = %v", err)
	}
	unlockBob, err := other.Lock(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	defer unlockBob()
	if err := l.CheckLock(ctx); err == nil || !strings.Contains(err.Error(), "now holds lock") || !strings.Contains(err.Error(), "of bob") {
		t.Errorf("CheckLock once bob holds the lock = %v", err)
	}
}

func TestLocalLockHeldByAnotherProcess(t *testing.T) {
	ctx := context.Background()
	path := statePath(t)
	holder := startLockHolder(t, "local-hold", path, "")

	l := NewLocal(path)
	_, err := l.Lock(ctx, "alice")
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("Lock while another process holds it = %v, want a *LockedError", err)
	}
	if le.Info.PID != holder.cmd.Process.Pid || le.Info.Who != "helper" || le.Stale {
		t.Errorf("LockedError = %+v (stale %v), want the live helper process %d", le.Info, le.Stale, holder.cmd.Process.Pid)
	}

	holder.release(t)
	unlock, err := l.Lock(ctx, "alice")
	if err != nil {
		t.Fatalf("Lock after the other process released it = %v", err)
	}
	unlock()
}

// A run that died holding the lock leaves the file: the lock is reported as
// stale, is not taken over, and goes only when force-unlock names its ID.
func TestLocalStaleLockIsReportedAndForceUnlocked(t *testing.T) {
	ctx := context.Background()
	path := statePath(t)
	holder := startLockHolder(t, "local-crash", path, "")
	holder.cmd.Wait()

	l := NewLocal(path)
	_, err := l.Lock(ctx, "alice")
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("Lock with a stale lock file = %v, want a *LockedError", err)
	}
	if !le.Stale || !strings.Contains(err.Error(), "stale") || !strings.Contains(err.Error(), l.LockPath()) {
		t.Errorf("stale lock not reported as such with its file: %v", err)
	}

	if err := l.ForceUnlock("not-the-id"); err == nil || !strings.Contains(err.Error(), le.Info.ID) {
		t.Errorf("ForceUnlock with a wrong ID = %v, want a refusal naming the real ID", err)
	}
	if _, err := os.Stat(l.LockPath()); err != nil {
		t.Fatalf("ForceUnlock with a wrong ID removed the lock: %v", err)
	}
	if err := l.ForceUnlock(le.Info.ID); err != nil {
		t.Fatal(err)
	}
	unlock, err := l.Lock(ctx, "alice")
	if err != nil {
		t.Fatalf("Lock after force-unlock = %v", err)
	}
	unlock()
	if err := l.ForceUnlock(le.Info.ID); err == nil || !strings.Contains(err.Error(), "not locked") {
		t.Errorf("ForceUnlock without a lock = %v", err)
	}
}

func TestLocalUnreadableLockFileStillBlocks(t *testing.T) {
	l := NewLocal(statePath(t))
	if err := os.WriteFile(l.LockPath(), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := l.Lock(context.Background(), "alice")
	var le *LockedError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "delete "+l.LockPath()) {
		t.Fatalf("Lock with an unreadable lock file = %v, want a *LockedError saying to delete it", err)
	}
}

// When a run's lock is force-unlocked and another run takes it, the first
// run may no longer write, and its unlock leaves the new lock alone.
func TestLocalLockTakenOverAfterForceUnlock(t *testing.T) {
	ctx := context.Background()
	first := NewLocal(statePath(t))
	unlockFirst, err := first.Lock(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := first.Read(ctx)
	if err := first.Write(ctx, s); err != nil {
		t.Fatalf("Write while holding the lock = %v", err)
	}

	second := NewLocal(first.Path())
	info, _ := readLockFile(first.LockPath())
	if err := second.ForceUnlock(info.ID); err != nil {
		t.Fatal(err)
	}
	unlockSecond, err := second.Lock(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	defer unlockSecond()

	if err := first.Write(ctx, s); err == nil || !strings.Contains(err.Error(), "removed") {
		t.Errorf("Write after losing the lock = %v, want it refused", err)
	}
	if err := unlockFirst(); err == nil {
		t.Error("unlock of a lock that was taken over reported success")
	}
	now, err := readLockFile(first.LockPath())
	if err != nil || now.Who != "bob" {
		t.Errorf("first run's unlock removed bob's lock: %+v %v", now, err)
	}
}
