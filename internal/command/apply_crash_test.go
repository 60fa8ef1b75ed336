package command

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/internal/shellquote"
	"github.com/neonform/neonform/state"
)

// These tests run neonform as a separate process (the test binary, which
// TestMain makes answer to the name "neonform") and kill or interrupt it in
// the middle of an apply, against an emulator in this process.

const crashBefore = `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {}
    compute "old" { type = "read_only" }
    compute "keep" { type = "read_only" }
  }
  branch "dev" {
    compute "app" { type = "read_only" }
    compute "wanderer" { type = "read_only" }
  }
}
project "books" {
  id = "hidden-river-50598307"
  branch "main" {
    compute "primary" {}
    compute "gone" { type = "read_only" }
  }
  branch "dev" {}
}
`

// crashAfter changes every kind of thing: creates, updates with restart, a
// delete, a replacement (create first, then delete), a move to another
// branch and a rename, in two projects.
const crashAfter = `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" { size = 2 }
    compute "keep" {
      type        = "read_only"
      pg_settings = { work_mem = "64MB" }
    }
    compute "new1" { type = "read_only" }
    compute "wanderer" { type = "read_only" }
  }
  branch "dev" {
    compute "app" { type = "read_write" }
  }
}
project "books" {
  id = "hidden-river-50598307"
  branch "main" {
    compute "writer" {
      name = "primary"
      size = 2
    }
    compute "new2" { type = "read_only" }
    compute "new3" { type = "read_only" }
  }
  branch "dev" {
    compute "rw" {}
  }
}
moved {
  from = "shop.dev.wanderer"
  to   = "shop.main.wanderer"
}
moved {
  from = "books.main.primary"
  to   = "books.main.writer"
}
`

var crashProjects = []string{"dark-sun-46453911", "hidden-river-50598307"}

// crashWorld is an emulator over loopback and a configuration directory.
type crashWorld struct {
	t   *testing.T
	emu *emulator.Emulator
	// slowMutations, when set, delays the answer to every POST, PATCH and
	// DELETE: a call in flight that an interrupt must not wait for.
	slowMutations atomic.Int64
	// holdFrom, when set, holds the answer to the holdFrom-th mutation and
	// every later one until release is closed: a step in flight for as long
	// as a test needs, however slow the machine.
	holdFrom  atomic.Int64
	mutations atomic.Int64
	release   chan struct{}
	closing   chan struct{}
	url       string
	dir       string
	c         *api.Client
}

func newCrashWorld(t *testing.T, opDelay time.Duration) *crashWorld {
	emu, err := emulator.New(emulator.Options{RatePerMinute: -1, OpDelay: opDelay})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range crashProjects {
		if _, err := emu.EnsureProject(id, id); err != nil {
			t.Fatal(err)
		}
		if _, _, err := emu.EnsureBranch(id, "dev"); err != nil {
			t.Fatal(err)
		}
	}
	w := &crashWorld{t: t, emu: emu, dir: t.TempDir(), release: make(chan struct{}), closing: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			if from := w.holdFrom.Load(); from > 0 && w.mutations.Add(1) >= from {
				select {
				case <-w.release:
				case <-r.Context().Done():
				case <-w.closing:
				}
			}
		}
		if d := time.Duration(w.slowMutations.Load()); d > 0 && r.Method != http.MethodGet {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
			case <-w.closing:
			}
		}
		emu.Handler().ServeHTTP(rw, r)
	}))
	t.Cleanup(func() {
		srv.Close()
		emu.Close()
	})
	t.Cleanup(func() { close(w.closing) }) // runs first: slow answers end
	w.url = srv.URL + "/api/v2"
	w.c, err = api.New(api.Options{BaseURL: w.url, APIKey: emu.APIKey(), RatePerMinute: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("NEON_API_URL", w.url)
	t.Setenv("NEON_API_KEY", emu.APIKey())
	t.Setenv("NEONFORM_POLL_INTERVAL", scriptPollInterval)
	return w
}

func (w *crashWorld) write(src string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "main.hcl"), []byte(src), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// neonform runs the CLI in this process and returns its exit code and output.
func (w *crashWorld) neonform(args ...string) (int, string) {
	var out bytes.Buffer
	code := run(append([]string{"neonform"}, args...), strings.NewReader(""), &out, &out)
	return code, out.String()
}

// lockedBuffer collects a child's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start runs neonform as a child process, with its standard output on a pipe.
func (w *crashWorld) start(args ...string) (*exec.Cmd, *bufio.Scanner, *lockedBuffer) {
	w.t.Helper()
	cmd := exec.Command("neonform", args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		w.t.Fatalf("starting neonform: %v (TestMain puts it on PATH)", err)
	}
	return cmd, bufio.NewScanner(stdout), stderr
}

// waitForStepStart reads lines until the n-th step has started ("...").
func waitForStepStart(sc *bufio.Scanner, n int, seen *strings.Builder) bool {
	for sc.Scan() {
		line := sc.Text()
		seen.WriteString(line + "\n")
		if strings.HasSuffix(line, "...") {
			n--
			if n == 0 {
				return true
			}
		}
	}
	return false
}

// unlockIfLeft removes the lock a killed apply leaves, as an operator would,
// with force-unlock and the lock's ID.
func (w *crashWorld) unlockIfLeft() {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, "neonform.state.json.lock"))
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		w.t.Fatal(err)
	}
	var info state.LockInfo
	if err := json.Unmarshal(b, &info); err != nil {
		w.t.Fatalf("lock file: %v\n%s", err, b)
	}
	if code, out := w.neonform("force-unlock", info.ID, w.dir); code != 0 {
		w.t.Fatalf("force-unlock: %s", out)
	}
}

// checkConverged: a plan has nothing to do, no branch has two endpoints of
// one name, and the state and the service agree on the endpoints.
func (w *crashWorld) checkConverged(what string) {
	w.t.Helper()
	if code, out := w.neonform("plan", "-detailed-exitcode", w.dir); code != 0 {
		w.t.Errorf("%s: the plan after the rerun is not empty (exit %d):\n%s", what, code, out)
	}
	st, err := state.NewLocal(filepath.Join(w.dir, "neonform.state.json")).Read(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	var inState, live []string
	for _, c := range st.Computes {
		inState = append(inState, c.EndpointID)
	}
	for _, p := range crashProjects {
		eps, err := w.c.ListEndpoints(context.Background(), p)
		if err != nil {
			w.t.Fatal(err)
		}
		names := map[string]string{}
		for _, ep := range eps {
			live = append(live, ep.ID)
			key := ep.BranchID + "/" + ep.Name
			if other, dup := names[key]; dup {
				w.t.Errorf("%s: duplicate endpoints named %q on branch %s: %s and %s", what, ep.Name, ep.BranchID, other, ep.ID)
			}
			names[key] = ep.ID
		}
	}
	slices.Sort(inState)
	slices.Sort(live)
	if !slices.Equal(inState, live) {
		w.t.Errorf("%s: the state records %v, but the live endpoints are %v", what, inState, live)
	}
}

// TestApplyKilledAtARandomStepConverges kills apply (SIGKILL: no chance to
// clean up) at a random moment of a random step, 20 times. Each time, after
// removing the lock it left, a rerun must finish the job: no duplicates, no
// orphans, nothing left to do.
func TestApplyKilledAtARandomStepConverges(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	interrupted := 0
	defer func() {
		t.Logf("%d of 20 kills left work for the rerun", interrupted)
		if interrupted < 10 {
			t.Errorf("only %d of 20 kills happened before the apply was done: the test does not test much", interrupted)
		}
	}()
	for i := range 20 {
		w := newCrashWorld(t, 15*time.Millisecond)
		w.write(crashBefore)
		if code, out := w.neonform("apply", "-auto-approve", w.dir); code != 0 {
			t.Fatalf("first apply: %s", out)
		}
		w.write(crashAfter)
		steps := 1 + rng.IntN(10)
		delay := time.Duration(rng.IntN(40)) * time.Millisecond
		cmd, sc, stderr := w.start("apply", "-auto-approve", w.dir)
		var seen strings.Builder
		started := waitForStepStart(sc, steps, &seen)
		time.Sleep(delay)
		cmd.Process.Kill()
		for sc.Scan() {
		}
		cmd.Wait()
		what := fmt.Sprintf("run %d (killed %s after step %d started; it had printed:\n%s%s)", i, delay, steps, seen.String(), stderr.String())
		if !started {
			t.Logf("%s: the apply ended before that step", what)
		}
		w.unlockIfLeft()
		if code, _ := w.neonform("plan", "-detailed-exitcode", w.dir); code == exitChanges {
			interrupted++
		}
		if code, out := w.neonform("apply", "-auto-approve", w.dir); code != 0 {
			t.Fatalf("%s: the rerun failed:\n%s", what, out)
		}
		w.checkConverged(what)
		if t.Failed() {
			return
		}
	}
}

// TestApplyInterruptFinishesTheStepInFlight: one SIGINT, SIGTERM (CI
// cancelling a job) or SIGHUP (the terminal closed) stops new steps, the step
// in flight is recorded, the lock is released, apply exits 1 saying what is
// left, and a rerun finishes the job. The second step's call is held until
// apply has said it received the signal, so the signal always lands while
// that step is in flight, however loaded the machine: the test waits on what
// apply says, never on time.
func TestApplyInterruptFinishesTheStepInFlight(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			w := newCrashWorld(t, 100*time.Millisecond)
			w.write(crashBefore)
			if code, out := w.neonform("apply", "-auto-approve", w.dir); code != 0 {
				t.Fatalf("first apply: %s", out)
			}
			w.write(crashAfter)
			w.mutations.Store(0)
			w.holdFrom.Store(2)
			cmd, sc, stderr := w.start("apply", "-auto-approve", "-parallelism", "1", w.dir)
			var seen strings.Builder
			if !waitForStepStart(sc, 2, &seen) {
				t.Fatalf("apply ended early:\n%s%s", seen.String(), stderr.String())
			}
			cmd.Process.Signal(sig)
			received := "Received " + sig.String() + ": no new step starts"
			for giveUp := time.Now().Add(time.Minute); !strings.Contains(stderr.String(), received); time.Sleep(time.Millisecond) {
				if time.Now().After(giveUp) {
					t.Fatalf("apply has not said %q after a minute:\n%s%s", received, seen.String(), stderr.String())
				}
			}
			close(w.release) // the step in flight gets its answer
			for sc.Scan() {
				seen.WriteString(sc.Text() + "\n")
			}
			err := cmd.Wait()
			out := seen.String() + stderr.String()
			if code := cmd.ProcessState.ExitCode(); code != 1 {
				t.Fatalf("exit %d (%v), want 1:\n%s", code, err, out)
			}
			for _, want := range []string{
				"Received " + sig.String() + ": no new step starts",
				"Apply interrupted after",
				"Not attempted:",
				// The suggestion names the directory this apply was given.
				"The state records every step that was done. Run `neonform plan " + shellquote.Word(w.dir) + "` to see exactly what remains",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if _, err := os.Stat(filepath.Join(w.dir, "neonform.state.json.lock")); !os.IsNotExist(err) {
				t.Errorf("an interrupted apply must release the lock: %v", err)
			}
			if code, out := w.neonform("apply", "-auto-approve", w.dir); code != 0 {
				t.Fatalf("the rerun failed:\n%s", out)
			}
			w.checkConverged("after an interrupt")
		})
	}
}

// TestApplySecondInterruptExitsAtOnce: while a call is slow to answer, a
// second SIGINT does not wait for it.
func TestApplySecondInterruptExitsAtOnce(t *testing.T) {
	w := newCrashWorld(t, 0)
	w.write(crashBefore)
	if code, out := w.neonform("apply", "-auto-approve", w.dir); code != 0 {
		t.Fatalf("first apply: %s", out)
	}
	w.write(crashAfter)
	plan := filepath.Join(w.dir, "plan.json")
	if code, out := w.neonform("plan", "-out", plan, w.dir); code != 0 {
		t.Fatalf("plan: %s", out)
	}
	w.slowMutations.Store(int64(5 * time.Second))
	cmd, sc, stderr := w.start("apply", plan, w.dir)
	var seen strings.Builder
	if !waitForStepStart(sc, 1, &seen) {
		t.Fatalf("apply ended early:\n%s%s", seen.String(), stderr.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(100 * time.Millisecond)
	second := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	for sc.Scan() {
	}
	cmd.Wait()
	took := time.Since(second)
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	// The call in flight takes 5s to answer; exiting "at once" is far less.
	if took > 2*time.Second {
		t.Errorf("apply took %s to exit after the second interrupt", took)
	}
	if !strings.Contains(stderr.String(), "again: exiting at once") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}
