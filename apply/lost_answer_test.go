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

// An update whose answer is lost after the service carried it out is in
// place by the attribute table's rules, and is never sent again: a second
// PATCH would restart the compute a second time. The primary here asks for
// suspend_timeout = "5m" and has the service's default (0) live: equal by
// the rules, though not by value.
func TestUpdateLostAfterArrivalIsNotSentAgain(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	fiveMinutes := strings.Replace(oneReplica, `compute "primary" {}`, `compute "primary" { suspend_timeout = "5m" }`, 1)
	w.mustApply(fiveMinutes)
	bigger := strings.Replace(oneReplica, `compute "primary" {}`, "compute \"primary\" {\n      suspend_timeout = \"5m\"\n      size = 2\n    }", 1)
	w.emu.ResetStats()
	w.loseAnswers("PATCH", "/endpoints/", 1)
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), w.plan(bigger), &out)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	if got := w.emu.Stats().Requests["PATCH /projects/{project_id}/endpoints/{endpoint_id}"]; got != 1 {
		t.Errorf("the service got %d PATCHes: the lost answer's change was in place, so one is right (a second restarts the compute again)", got)
	}
	if len(rep.Done) != 1 || !rep.Done[0].Unchanged {
		t.Errorf("the update is not reported as found in place: %+v", rep.Done)
	}
	if !strings.Contains(out.String(), " update-in-place ") {
		t.Errorf("progress:\n%s", out.String())
	}
	for _, ep := range w.endpoints(shop) {
		if ep.Type == api.EndpointTypeReadWrite && ep.SuspendTimeoutSeconds != 0 {
			t.Errorf("the PATCH set suspend_timeout_seconds %d; 5m is the service's default, left as it was", ep.SuspendTimeoutSeconds)
		}
	}
	w.checkConverged(bigger, shop)
}

// An update whose request was lost on its way (the service never saw it) is
// not in place, and is sent once more.
func TestUpdateLostBeforeArrivalIsSentAgain(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	fiveMinutes := strings.Replace(oneReplica, `compute "primary" {}`, `compute "primary" { suspend_timeout = "5m" }`, 1)
	w.mustApply(fiveMinutes)
	bigger := strings.Replace(oneReplica, `compute "primary" {}`, "compute \"primary\" {\n      suspend_timeout = \"5m\"\n      size = 2\n    }", 1)
	p := w.plan(bigger)
	w.emu.ResetStats()
	w.loseBeforeArrival("PATCH")
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), p, &out)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	st := w.emu.Stats()
	if got := st.Requests["PATCH /projects/{project_id}/endpoints/{endpoint_id}"]; got != 1 {
		t.Errorf("the service got %d PATCHes, want 1: the first never arrived, the second did", got)
	}
	if got := st.Requests["GET /projects/{project_id}/endpoints/{endpoint_id}"]; got != 1 {
		t.Errorf("apply read the endpoint %d times to see what the lost update did, want once", got)
	}
	if len(rep.Done) != 1 || rep.Done[0].Unchanged {
		t.Errorf("report: %+v", rep.Done)
	}
	if !strings.Contains(out.String(), " update-resent ") {
		t.Errorf("progress:\n%s", out.String())
	}
	w.checkConverged(bigger, shop)
}

// After a create's answer is lost, apply adopts an endpoint of the create's
// name, type and branch only if it was not there when the apply started:
// one that was is someone else's, however much it looks like the one the
// create would make.
func TestLostCreateAdoptsOnlyWhatTheRunMade(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(oneReplica)
	var create *diff.Step
	for i := range p.Steps {
		if p.Steps[i].Kind == diff.StepCreate {
			create = &p.Steps[i]
		}
	}
	if create == nil {
		t.Fatalf("no create in %+v", p.Steps)
	}
	ctx := context.Background()
	made, err := w.c.CreateEndpoint(ctx, shop, *create.Create)
	if err != nil {
		t.Fatal(err)
	}
	st, err := w.state.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		atStart  []api.Endpoint
		wantSeen bool
	}{
		{"there at the start", w.endpoints(shop), false},
		{"made since", nil, true},
	} {
		r := newRun(p, st, map[string][]api.Endpoint{shop: c.atStart}, Options{Client: w.c, State: w.state})
		found, err := r.findCreated(ctx, create)
		if err != nil {
			t.Fatal(err)
		}
		if seen := found != nil && found.ID == made.Endpoint.ID; seen != c.wantSeen {
			t.Errorf("%s: found %v, want it found: %v", c.name, found, c.wantSeen)
		}
	}
}

// loseCreateMaking lets the service make, for the first create, an endpoint
// whose request body edit changed, then loses the answer: what a create
// whose answer was lost finds on its branch when someone else made an
// endpoint of that name meanwhile, or when the service made it differently.
func (w *world) loseCreateMaking(edit func(ep map[string]any)) {
	done := false
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method != "POST" || !strings.HasSuffix(req.URL.Path, "/endpoints") || done {
			return forward()
		}
		done = true
		var body map[string]map[string]any
		if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
			return nil, err
		}
		req.Body.Close()
		edit(body["endpoint"])
		b, _ := json.Marshal(body)
		edited := req.Clone(req.Context())
		edited.Body, edited.ContentLength, edited.GetBody = io.NopCloser(bytes.NewReader(b)), int64(len(b)), nil
		resp, err := http.DefaultTransport.RoundTrip(edited)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		return nil, errConnectionLost
	})
}

// The endpoint a lost create made is adopted when its values are the
// create's by the attribute table's equality rules, and the state records
// the values it has, not the plan's: here the service's default suspend
// timeout, 0, where the create asked for 5 minutes.
func TestLostCreateAdoptsAnEqualEndpointWithItsOwnValues(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	src := strings.Replace(oneReplica, `type = "read_only"`, "type = \"read_only\"\n      suspend_timeout = \"5m\"", 1)
	p := w.plan(src)
	w.loseCreateMaking(func(ep map[string]any) { ep["suspend_timeout_seconds"] = 0 })
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), p, &out)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	if len(rep.Failed) > 0 {
		t.Fatalf("the create failed: %v\n%s", rep.Failed[0].Err, out.String())
	}
	var created *StepResult
	for i := range rep.Done {
		if rep.Done[i].Step.Kind == diff.StepCreate {
			created = &rep.Done[i]
		}
	}
	if created == nil || !created.Adopted {
		t.Fatalf("the create is not reported as adopted: %+v\n%s", rep.Done, out.String())
	}
	st, err := w.state.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := st.Computes["shop.main.reports"]
	if c == nil || c.EndpointID != created.EndpointID {
		t.Fatalf("the state does not record %s as shop.main.reports: %+v", created.EndpointID, c)
	}
	if c.Applied.SuspendTimeoutSeconds != 0 {
		t.Errorf("the state records suspend_timeout_seconds %d, the plan's; the endpoint has 0", c.Applied.SuspendTimeoutSeconds)
	}
	if c.Host == "" {
		t.Errorf("the state records no host for %s", c.EndpointID)
	}
	w.checkConverged(src, shop)
}

// An endpoint of the create's name and type that appeared during the run
// but differs from what the create asked for is not adopted: the step fails,
// saying what was found and what differs, and the state records nothing
// for it.
func TestLostCreateRefusesAnEndpointThatDiffers(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(oneReplica)
	w.loseCreateMaking(func(ep map[string]any) {
		ep["autoscaling_limit_min_cu"], ep["autoscaling_limit_max_cu"] = 2, 2
	})
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), p, &out)
	if err == nil {
		t.Fatalf("apply succeeded:\n%s", out.String())
	}
	var other *api.Endpoint
	for _, ep := range w.endpoints(shop) {
		if ep.Name == "reports" {
			other = &ep
		}
	}
	if other == nil {
		t.Fatal("the service made no endpoint named reports")
	}
	if len(rep.Failed) != 1 || rep.Failed[0].Step.Kind != diff.StepCreate {
		t.Fatalf("the create did not fail: done %+v, failed %+v\n%s", rep.Done, rep.Failed, out.String())
	}
	var found *FoundNotCreatedError
	if !errors.As(rep.Failed[0].Err, &found) {
		t.Fatalf("the create failed with %v, not a refusal to adopt", rep.Failed[0].Err)
	}
	msg := found.Error()
	for _, want := range []string{other.ID, `"reports"`, "min_cu is 2 there, the create asked for 1", "max_cu is 2 there", "neonform import shop.main.reports " + other.ID} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q:\n%s", want, msg)
		}
	}
	if got := w.emu.Stats().Requests["POST /projects/{project_id}/endpoints"]; got != 1 {
		t.Errorf("the create was sent %d times; something was made, so never again", got)
	}
	st, err := w.state.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for addr, c := range st.Computes {
		if c.EndpointID == other.ID {
			t.Errorf("the state records %s as %s", other.ID, addr)
		}
	}
}
