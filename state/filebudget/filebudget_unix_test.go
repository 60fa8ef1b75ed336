//go:build unix

package filebudget_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/state/filebudget"
	"github.com/neonform/neonform/state/internal/budgettest"
)

// Two runs' bursts of one route, asked while a third run holds the file's
// lock, are each spent in one turn of it: one is taken whole, the other's
// rest waits (budgettest.BurstsAreTakenWhole).
func TestBurstsAreTakenWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "budget.json")
	budgettest.BurstsAreTakenWhole(t, func(t *testing.T, limits api.Limits) budgettest.Batched { return open(t, path, limits) },
		func() func() {
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
				t.Fatal(err)
			}
			return func() { f.Close() }
		})
}

// A named pipe, or a link to a device, where the budget file goes is not
// written to: the run says so once and keeps its own budget, and the pipe
// and the device are left as they were.
func TestSpecialFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	null := filepath.Join(dir, "null.json")
	if err := os.Symlink("/dev/null", null); err != nil {
		t.Fatal(err)
	}
	for path, what := range map[string]string{fifo: "is a named pipe", null: "is a symbolic link to /dev/null, a character device"} {
		var warnings []string
		b := filebudget.Open(path, api.Limits{PerMinute: 5, PerRoute: 3, Minute: time.Minute}, func(msg string) { warnings = append(warnings, msg) })
		if done, w, err := b.Spend(context.Background(), "GET /a"); done == nil || w != 0 || err != nil {
			t.Errorf("%s: spend on the run's own budget: wait %s, %v", path, w, err)
		}
		b.Close()
		if len(warnings) != 1 || !strings.Contains(warnings[0], what) || !strings.Contains(warnings[0], "only in a regular file") {
			t.Errorf("%s: warnings %q, want one saying it %s", path, warnings, what)
		}
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe is no longer one: %v %v", info, err)
	}
	if info, err := os.Stat("/dev/null"); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a character device: %v %v", info, err)
	}
}
