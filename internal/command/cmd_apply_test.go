package command

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff"
)

// applyAsked runs apply with a directory as if on a terminal, answering the
// question with answer.
func applyAsked(t *testing.T, w *crashWorld, answer string) (string, error) {
	return askedWithScope(w, answer, diff.Scope{})
}

// askedWithScope is applyAsked with -target, -replace or -destroy.
func askedWithScope(w *crashWorld, answer string, scope diff.Scope) (string, error) {
	var out bytes.Buffer
	err := runApply(context.Background(), applyOptions{
		planInputs:  planInputs{Dir: w.dir, Parallelism: 4, Scope: scope},
		Env:         newEnvironment(os.Environ()),
		Stdin:       strings.NewReader(answer),
		Stdout:      &out,
		Stderr:      &out,
		Interactive: true,
	})
	return out.String(), err
}

func TestApplyOnATerminalAsksAndTakesOnlyYes(t *testing.T) {
	w := newCrashWorld(t, 0)
	w.write(crashBefore)
	for _, answer := range []string{"", "no\n", "y\n", "YES\n"} {
		out, err := applyAsked(t, w, answer)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(ee.msg, "Apply cancelled: nothing was changed.") {
			t.Fatalf("answer %q: want the apply cancelled, got %v\n%s", answer, err, out)
		}
		if !strings.Contains(out, "Apply this plan? Only 'yes' is accepted: ") {
			t.Errorf("answer %q: the question was not asked:\n%s", answer, out)
		}
		if n := w.emu.Stats().Requests["POST /projects/{project_id}/endpoints"]; n != 0 {
			t.Fatalf("answer %q: %d creates were sent", answer, n)
		}
	}
	out, err := applyAsked(t, w, "yes\n")
	if err != nil || !strings.Contains(out, "Apply complete:") {
		t.Fatalf("answer yes: %v\n%s", err, out)
	}
	w.checkConverged("after yes")

	// Nothing to do: no question.
	out, err = applyAsked(t, w, "")
	if err != nil || strings.Contains(out, "Apply this plan?") || !strings.Contains(out, "No changes") {
		t.Errorf("with nothing to do: %v\n%s", err, out)
	}
}

// destroy asks its own question, and deletes only after "yes".
func TestDestroyOnATerminalAsksAndTakesOnlyYes(t *testing.T) {
	w := newCrashWorld(t, 0)
	w.write(crashBefore)
	if _, err := applyAsked(t, w, "yes\n"); err != nil {
		t.Fatal(err)
	}
	destroyAsked := func(answer string) (string, error) { return askedWithScope(w, answer, diff.Scope{Destroy: true}) }
	out, err := destroyAsked("y\n")
	var ee *exitError
	if !errors.As(err, &ee) || !strings.Contains(ee.msg, "Destroy cancelled: nothing was changed.") {
		t.Fatalf("answer y: want the destroy cancelled, got %v\n%s", err, out)
	}
	if !strings.Contains(out, "Delete every compute listed above? There is no undo. Only 'yes' is accepted: ") {
		t.Errorf("the question was not asked:\n%s", out)
	}
	if n := w.emu.Stats().Requests["DELETE /projects/{project_id}/endpoints/{endpoint_id}"]; n != 0 {
		t.Fatalf("answer y: %d deletes were sent", n)
	}
	out, err = destroyAsked("yes\n")
	if err != nil || !strings.Contains(out, "Apply complete:") {
		t.Fatalf("answer yes: %v\n%s", err, out)
	}
	if code, list := w.neonform("state", "list", w.dir); code != 0 || !strings.Contains(list, "records no computes") {
		t.Errorf("after the destroy, state list says (exit %d):\n%s", code, list)
	}
}

// After the question, time passed: apply reads the endpoints of the projects
// it changes again, to refuse a plan that is no longer current. Without the
// question (-auto-approve) it checks the plan against the read that made it
// (internal/command/testdata/script/apply_requests.txtar).
func TestApplyAfterTheQuestionReadsTheEndpointsAgain(t *testing.T) {
	w := newCrashWorld(t, 0)
	w.write(crashBefore)
	if out, err := applyAsked(t, w, "yes\n"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	w.write(crashAfter)
	w.emu.ResetStats()
	if out, err := applyAsked(t, w, "yes\n"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// Two projects: each read to plan, and again to apply.
	if n := w.emu.Stats().Requests["GET /projects/{project_id}/endpoints"]; n != 4 {
		t.Errorf("the endpoints were read %d times, want 4: to plan, and again after the question", n)
	}
}
