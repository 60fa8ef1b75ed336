package state

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The test binary doubles as a helper process that holds a lock, so the
// tests can show that a lock held by another process cannot be taken.
const (
	helperMode = "NEONFORM_STATE_TEST_HELPER" // local-hold, local-crash, pg-hold
	helperPath = "NEONFORM_STATE_TEST_PATH"   // state file, or Postgres state name
	helperDSN  = "NEONFORM_STATE_TEST_DSN"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperMode); mode != "" {
		os.Exit(runHelper(mode))
	}
	code := m.Run()
	stopTestPostgres()
	os.Exit(code)
}

// runHelper takes the lock, says "locked" on stdout, then either exits at once
// without unlocking (local-crash: a run that died) or holds the lock until its
// stdin closes and releases it.
func runHelper(mode string) int {
	ctx := WithOperation(context.Background(), "apply")
	var b Backend
	switch mode {
	case "local-hold", "local-crash":
		b = NewLocal(os.Getenv(helperPath))
	case "pg-hold":
		p, err := NewPostgres(ctx, os.Getenv(helperDSN), os.Getenv(helperPath))
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		b = p
	default:
		fmt.Println("error: unknown helper mode", mode)
		return 1
	}
	unlock, err := b.Lock(ctx, "helper")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("locked")
	if mode == "local-crash" {
		return 0
	}
	io.Copy(io.Discard, os.Stdin)
	if err := unlock(); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	return 0
}

// lockHolder is a helper process holding a lock.
type lockHolder struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// startLockHolder runs the helper and returns once it holds the lock.
func startLockHolder(t *testing.T, mode, path, dsn string) *lockHolder {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperMode+"="+mode, helperPath+"="+path, helperDSN+"="+dsn)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &lockHolder{cmd: cmd, stdin: stdin}
	t.Cleanup(func() {
		h.stdin.Close()
		h.cmd.Process.Kill()
		h.cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper process did not take the lock: %q (%v)", line, err)
	}
	return h
}

// release makes the helper unlock and exit, and waits for it.
func (h *lockHolder) release(t *testing.T) {
	t.Helper()
	h.stdin.Close()
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("helper process failed to release its lock: %v", err)
	}
}
