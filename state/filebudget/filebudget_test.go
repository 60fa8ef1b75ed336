package filebudget_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/state/filebudget"
	"github.com/neonform/neonform/state/internal/budgettest"
)

// open is a budget of limits kept at path, as one run would open it.
func open(t *testing.T, path string, limits api.Limits) *filebudget.Budget {
	t.Helper()
	b := filebudget.Open(path, limits, func(msg string) { t.Errorf("unexpected warning: %s", msg) })
	t.Cleanup(b.Close)
	return b
}

// The windows, counted across two runs of one file
// (budgettest.KeepsBothWindows); another account's file is its own.
func TestSpendKeepsBothWindowsAcrossRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "budget.json")
	l := budgettest.WindowLimits
	budgettest.KeepsBothWindows(t, []api.Budget{open(t, path, l), open(t, path, l)}, open(t, path+"x", l))
}

// The file is named by a hash, never by the key.
func TestPathHidesTheKey(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	p, err := filebudget.Path("https://console.neon.tech/api/v2", "napi_secret")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p, "napi_secret") || !strings.HasPrefix(filepath.Base(p), "budget-") {
		t.Errorf("path %s", p)
	}
	if q, _ := filebudget.Path("https://console.neon.tech/api/v2", "napi_other"); q == p {
		t.Errorf("two keys, one file %s", p)
	}
}

// A file that cannot be made is said once, and the run goes on with its own
// budget.
func TestUnusableFileFallsBackWithOneWarning(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	b := filebudget.Open(filepath.Join(notDir, "budget.json"), api.Limits{PerMinute: 5, PerRoute: 3, Minute: time.Minute},
		func(msg string) { warnings = append(warnings, msg) })
	defer b.Close()
	for range 3 {
		if done, w, err := b.Spend(context.Background(), "GET /a"); done == nil || w != 0 || err != nil {
			t.Fatalf("spend on the run's own budget: wait %s, %v", w, err)
		}
	}
	if _, w, _ := b.Spend(context.Background(), "GET /a"); w == 0 {
		t.Error("the run's own budget does not keep the route's window")
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "own rate budget") {
		t.Errorf("warnings %q, want one", warnings)
	}
}

// Runs sharing one file (four handles of it, as four processes would have)
// keep the budget's contract together.
func TestRunsSharingTheFileProvokeNo429(t *testing.T) {
	path := filepath.Join(t.TempDir(), "budget.json")
	budgettest.RunsProvokeNo429(t, func(t *testing.T, limits api.Limits) api.Budget { return open(t, path, limits) })
}

// A 429 one run records in the file pauses the others.
func TestA429PausesEveryRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "budget.json")
	other := budgettest.A429PausesEveryRun(t, func(t *testing.T, limits api.Limits) api.Budget { return open(t, path, limits) })
	if n, err := other.(*filebudget.Budget).Throttles(); n != 1 || err != nil {
		t.Errorf("the file recorded %d 429s (%v), want 1", n, err)
	}
}

// A request answered after the run closed its budget is not recorded, and
// says nothing: the run is over.
func TestAnsweredAfterCloseIsQuiet(t *testing.T) {
	b := open(t, filepath.Join(t.TempDir(), "budget.json"), api.Limits{PerMinute: 5, PerRoute: 3, Minute: time.Minute})
	done, _, err := b.Spend(context.Background(), "GET /a")
	if err != nil || done == nil {
		t.Fatal(err)
	}
	b.Close()
	done()
	if done, _, err := b.Spend(context.Background(), "GET /a"); done == nil || err != nil {
		t.Errorf("a spend after Close: %v", err)
	}
}

// Runs that find the file's budget unused spend its minute at once.
func TestMinuteIsSpentAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "budget.json")
	budgettest.MinuteIsSpentAtOnce(t, func(t *testing.T, limits api.Limits) api.Budget { return open(t, path, limits) })
}
