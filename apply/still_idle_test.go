package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// A change that may interrupt its compute only while idle
// (restart_idle_only) reads the endpoint just before the step that
// interrupts it: the update of a restart, the delete of a replacement's
// old endpoint. Found active, the step is refused and nothing is sent;
// found idle, it goes, and the progress says so; a read that fails sends
// nothing either.
func TestStepsThatInterruptAreSentOnlyWhileIdle(t *testing.T) {
	bigger := strings.Replace(oneReplica, `compute "reports" {`, `compute "reports" {
      size = 2`, 1)
	for _, tc := range []struct {
		name    string
		replace bool
		state   api.EndpointState // what the read just before says; "" refuses the read
		method  string            // the call that interrupts
		sent    bool
		says    string
	}{
		{"restart, woken", false, api.EndpointStateActive, "PATCH", false, "was idle when planned, but"},
		// The engine reports the fact (the views word it: "idle now, no
		// connections to drop", internal/command/views).
		{"restart, still idle", false, api.EndpointStateIdle, "PATCH", true, "update idle-now=true"},
		{"restart, read refused", false, "", "PATCH", false, "to check that it is still idle failed"},
		{"replacement, woken", true, api.EndpointStateActive, "DELETE", false, "was idle when planned, but"},
		{"replacement, still idle", true, api.EndpointStateIdle, "DELETE", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, worldOptions{projects: []string{shop}})
			w.mustApply(oneReplica)
			src, scope := bigger, diff.Scope{}
			if tc.replace {
				src, scope = oneReplica, diff.Scope{Replace: []string{"shop.main.reports"}}
			}
			p := w.planScoped(src, scope)
			var ch *diff.Change
			for i := range p.Changes {
				if p.Changes[i].Address == "shop.main.reports" {
					ch = &p.Changes[i]
				}
			}
			// The block says allow_restart = false, and the plan was made
			// while the compute was idle.
			ch.RestartIdleOnly = true
			old := ch.EndpointID
			w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
				if req.Method != "GET" || !strings.HasSuffix(req.URL.Path, "/endpoints/"+old) {
					return forward()
				}
				if tc.state == "" {
					return refusal(req, http.StatusForbidden, "not now"), nil
				}
				resp, err := forward()
				return withState(resp, err, tc.state)
			})
			w.emu.ResetStats()
			var out bytes.Buffer
			rep, err := w.apply(context.Background(), p, &out)
			route := tc.method + " /projects/{project_id}/endpoints"
			if tc.method != "POST" {
				route += "/{endpoint_id}"
			}
			if got := w.emu.Stats().Requests[route]; (got > 0) != tc.sent {
				t.Errorf("the service got %d %s, want sent = %v\n%s", got, tc.method, tc.sent, out.String())
			}
			if tc.sent {
				if err != nil {
					t.Fatalf("apply: %v\n%s", err, out.String())
				}
				if !strings.Contains(out.String(), tc.says) {
					t.Errorf("progress does not say %q:\n%s", tc.says, out.String())
				}
				return
			}
			if err == nil || len(rep.Failed) != 1 {
				t.Fatalf("apply: %v, %+v, want the step failed", err, rep)
			}
			failed := rep.Failed[0].Err
			var woken *WokenError
			if tc.state != "" && !errors.As(failed, &woken) {
				t.Errorf("the step failed with %v, want a WokenError", failed)
			}
			if !strings.Contains(failed.Error(), tc.says) || !strings.Contains(failed.Error(), "not sent") {
				t.Errorf("the step failed with %q, want it to say %q", failed, tc.says)
			}
		})
	}
}

// withState is the service's answer about one endpoint, with its
// current_state set to s.
func withState(resp *http.Response, err error, s api.EndpointState) (*http.Response, error) {
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	var doc map[string]map[string]any
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	doc["endpoint"]["current_state"] = string(s)
	delete(doc["endpoint"], "pending_state")
	raw, _ = json.Marshal(doc)
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(raw)), int64(len(raw))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// planScoped is plan with a scope (-replace, -target).
func (w *world) planScoped(src string, scope diff.Scope) *diff.Plan {
	w.t.Helper()
	w.scope = scope
	defer func() { w.scope = diff.Scope{} }()
	return w.plan(src)
}
