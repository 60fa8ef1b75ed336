package apply

import (
	"bytes"
	"context"
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
	if !strings.Contains(out.String(), "the answer to the update was lost, but the change is in place: not sending it again") {
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
	if !strings.Contains(out.String(), "the answer to the update was lost and the change is not in place: sending it again") {
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
		r := newRun(p, st, map[string][]api.Endpoint{shop: c.atStart}, Options{Client: w.c, State: w.state, Progress: &bytes.Buffer{}})
		found, err := r.findCreated(ctx, create)
		if err != nil {
			t.Fatal(err)
		}
		if seen := found != nil && found.ID == made.Endpoint.ID; seen != c.wantSeen {
			t.Errorf("%s: found %v, want it found: %v", c.name, found, c.wantSeen)
		}
	}
}
