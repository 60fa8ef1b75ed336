package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/neonform/neonform/emulator"
)

// stopAtWait is a standard error that ends the run (cancels its context) as
// soon as the run says it waits: the wait ends at once, so a test sees what a
// long wait says without waiting it.
type stopAtWait struct {
	mu     sync.Mutex
	b      bytes.Buffer
	cancel context.CancelFunc
}

func (s *stopAtWait) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.HasPrefix(p, []byte("Waiting ")) {
		s.cancel()
	}
	return s.b.Write(p)
}

func (s *stopAtWait) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A wait of more than a few seconds says what it waits for: on standard
// error, and with apply -json as a service_wait event on standard output.
func TestApplyJSONSaysWhatItWaitsFor(t *testing.T) {
	w := newCrashWorld(t, 0)
	w.write(crashBefore)
	planFile := filepath.Join(t.TempDir(), "plan.json")
	var planOut bytes.Buffer
	if err := runPlan(context.Background(), planOptions{planInputs: planInputs{Dir: w.dir, Parallelism: 1}, Out: planFile, Format: "human",
		Env: newEnvironment(os.Environ()), Stdout: &planOut, Stderr: &planOut}); err != nil {
		t.Fatalf("plan: %v\n%s", err, planOut.String())
	}
	faults, err := emulator.ParseFaults("429=1:24h")
	if err != nil {
		t.Fatal(err)
	}
	w.emu.SetFaults(faults)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &stopAtWait{cancel: cancel}
	var stdout bytes.Buffer
	err = runApply(ctx, applyOptions{planInputs: planInputs{Dir: w.dir, Parallelism: 1}, PlanFile: planFile, JSON: true,
		Env: newEnvironment(os.Environ()), Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: stderr})
	if err == nil {
		t.Fatalf("the apply succeeded against a service that answers only 429:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "Waiting 1m0s to send GET /projects/") || !strings.Contains(stderr.String(), " again after 429 Too Many Requests (Retry-After 1m0s)...\n") {
		t.Errorf("standard error does not say what the apply waits for:\n%s", stderr.String())
	}
	var waits []map[string]any
	for line := range strings.Lines(stdout.String()) {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		if e["type"] == "service_wait" {
			waits = append(waits, e)
		}
	}
	if len(waits) == 0 {
		t.Fatalf("no service_wait event:\n%s", stdout.String())
	}
	e := waits[0]
	what, _ := e["waiting_for"].(string)
	if !strings.HasPrefix(what, "to send GET /projects/") || !strings.HasSuffix(what, " again after 429 Too Many Requests (Retry-After 1m0s)") ||
		e["wait_seconds"] != 60.0 || e["@message"] != "Waiting 1m0s "+what+"..." {
		t.Errorf("service_wait = %v", e)
	}
}
