package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"strings"
	"testing"

	"github.com/neonform/neonform/state"
)

// An update whose answer was lost and that is not in place is sent again
// only while the run still holds the state lock: here the lock is removed
// (force-unlock) while the first request is lost on its way, and the update
// is not sent again.
func TestNoResendAfterTheLockIsLost(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(oneReplica)
	bigger := strings.Replace(oneReplica, `compute "primary" {}`, `compute "primary" { size = 2 }`, 1)
	p := w.plan(bigger)
	w.emu.ResetStats()
	lost := false
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method != "PATCH" || lost {
			return forward()
		}
		lost = true
		forceUnlock(t, w.state)
		if tr := httptrace.ContextClientTrace(req.Context()); tr != nil && tr.WroteRequest != nil {
			tr.WroteRequest(httptrace.WroteRequestInfo{})
		}
		return nil, errConnectionLost
	})
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), p, &out)
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("apply: %v, want an IncompleteError\n%s", err, out.String())
	}
	if got := w.emu.Stats().Requests["PATCH /projects/{project_id}/endpoints/{endpoint_id}"]; got != 0 {
		t.Errorf("the service got %d PATCHes: the lock was lost before the resend, so none is right", got)
	}
	if len(rep.Failed) != 1 {
		t.Fatalf("want the update failed: %+v", rep)
	}
	if msg := rep.Failed[0].Err.Error(); !strings.Contains(msg, "not sent again") || !strings.Contains(msg, "was removed while it ran") {
		t.Errorf("want the update not sent again because the lock was removed: %s", msg)
	}
}

// forceUnlock removes the state's lock, as neonform force-unlock does.
func forceUnlock(t *testing.T, l *state.Local) {
	t.Helper()
	raw, err := os.ReadFile(l.LockPath())
	if err != nil {
		t.Fatal(err)
	}
	var info state.LockInfo
	if err := json.Unmarshal(raw, &info); err != nil {
		t.Fatal(err)
	}
	if err := state.NewLocal(l.Path()).ForceUnlock(info.ID); err != nil {
		t.Fatal(err)
	}
}

// A delete answered 404 (someone deleted the endpoint a moment before) is
// done: the endpoint is gone, as the plan wanted, and the state forgets it.
func TestDeleteAnswered404IsDone(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(oneReplica)
	fewer := strings.Replace(oneReplica, "compute \"reports\" {\n      type = \"read_only\"\n    }", "", 1)
	p := w.plan(fewer)
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method != "DELETE" {
			return forward()
		}
		resp, err := forward() // deleted by someone else first...
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}}, // ...so apply's meets a 404
			Body: io.NopCloser(strings.NewReader(`{"code":"NOT_FOUND","message":"endpoint not found"}`)), Request: req}, nil
	})
	rep, err := w.apply(context.Background(), p, nil)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if len(rep.Done) != 1 || !rep.Done[0].AlreadyGone || rep.Counts.Deleted != 1 {
		t.Errorf("a delete answered 404 must count as done, the endpoint already gone: %+v", rep)
	}
	w.setTamper(nil)
	w.checkConverged(fewer, shop)
}
