package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// recordEvents applies p with a logHook and returns its lines: what Apply
// told its hooks, in order (the views word them: internal/command/views).
func recordEvents(t *testing.T, w *world, p *diff.Plan, opts Options) ([]string, *Report, error) {
	t.Helper()
	var out bytes.Buffer
	opts.Client, opts.State, opts.Hooks = w.c, w.state, []Hook{&logHook{b: &out}}
	rep, err := Apply(context.Background(), p, opts)
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), rep, err
}

// shape is a line's call and step, the order an apply must tell them in.
func shape(line string) string {
	f := strings.Fields(line)
	switch f[0] {
	case "started", "ended":
		return f[0] + " " + f[1] + " " + f[2]
	case "others":
		return "others"
	}
	return f[0]
}

func TestApplyEventsOfACreateAnUpdateAndADelete(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(oneReplica)
	next := strings.Replace(oneReplica, `compute "primary" {}`, `compute "primary" { size = 2 }`, 1)
	next = strings.Replace(next, `compute "reports" {`, `compute "analytics" {`, 1) // reports goes, analytics comes
	p := w.plan(next)

	events, _, err := recordEvents(t, w, p, Options{Parallelism: 1})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	want := []string{"checked", "begin"}
	for _, s := range p.Steps {
		if s.Kind == diff.StepState {
			t.Fatalf("unexpected state-only step %+v", s)
		}
		want = append(want, "started "+s.Address+" "+s.Kind.String(), "saved", "ended "+s.Address+" "+s.Kind.String())
	}
	want = append(want, "finished")
	var got []string
	for _, e := range events {
		got = append(got, shape(e))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	kinds := map[string]bool{}
	for _, s := range p.Steps {
		kinds[s.Kind.String()] = true
	}
	if !kinds["create"] || !kinds["update"] || !kinds["delete"] {
		t.Fatalf("the plan's steps %v are not a create, an update and a delete", kinds)
	}
	if events[0] != "checked 3 steps" {
		t.Errorf("PlanChecked: %s", events[0])
	}
	var serial int64
	for _, e := range events {
		var n int64
		if _, err := fmt.Sscanf(e, "saved %d", &n); err == nil {
			if n <= serial {
				t.Errorf("serials do not grow: %d after %d", n, serial)
			}
			serial = n
		}
	}
	st, _ := w.state.Read(context.Background())
	if serial != st.Serial {
		t.Errorf("the last StateSaved says serial %d, the state is at %d", serial, st.Serial)
	}
	if want := "ended shop.main.analytics create " + st.Computes["shop.main.analytics"].EndpointID; !slices.Contains(events, want) {
		t.Errorf("the create's end does not name the endpoint the state records: want %q in\n%s", want, strings.Join(events, "\n"))
	}
}

func TestApplyEventsOfAFailedStep(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.refuse("PATCH", "/projects/"+shop+"/", 400, "no, says the test")
	// The primary's name is new: an update, which the service refuses.
	events, rep, err := recordEvents(t, w, w.plan(oneReplicaNamed), Options{})
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("want an IncompleteError, got %v", err)
	}
	var got []string
	for _, e := range events {
		got = append(got, shape(e))
	}
	want := "checked\nbegin\nstarted shop.main.primary update\nended shop.main.primary update\nfinished"
	if strings.Join(got, "\n") != want {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if !strings.Contains(events[3], "failed: ") || !strings.Contains(events[3], "no, says the test") {
		t.Errorf("the step's end = %s", events[3])
	}
	if len(rep.Failed) != 1 || len(rep.NotAttempted) != 1 || rep.NotAttempted[0].Step.Address != "shop.main.reports" ||
		!strings.Contains(rep.NotAttempted[0].Err.Error(), "failed before it") {
		t.Errorf("report = %+v", rep)
	}
}

func TestApplyEventsOfARefusedApply(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(oneReplica)
	unlock, err := w.state.Lock(context.Background(), "someone-else")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	events, rep, err := recordEvents(t, w, p, Options{})
	if rep != nil || err == nil || !strings.Contains(err.Error(), "someone-else") {
		t.Fatalf("Apply of a locked state = %v, %v", rep, err)
	}
	if strings.Join(events, "\n") != "finished" {
		t.Errorf("events = %v, want Finished alone", events)
	}
}

func TestApplyEventsOfAWaitForOthersOperations(t *testing.T) {
	// The operation outlasts the time apply takes to start, even on a busy machine.
	w := newWorld(t, worldOptions{projects: []string{shop}, opDelay: 400 * time.Millisecond})
	w.mustApply(oneReplica)
	p := w.plan(strings.Replace(oneReplica, `compute "primary" {}`, `compute "primary" { size = 2 }`, 1))
	// Someone saves the primary in the console as the apply starts: nothing
	// changes, but the service runs an operation for it.
	for _, ep := range w.endpoints(shop) {
		if ep.Type == api.EndpointTypeReadWrite {
			if _, err := w.c.UpdateEndpoint(context.Background(), shop, ep.ID, api.EndpointUpdate{SuspendTimeoutSeconds: ptr(int64(0))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	events, _, err := recordEvents(t, w, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Nothing in the endpoints shows the console's operation, and the run's
	// read of the first project's operations goes out with its first change
	// (to learn how long they take, not to look for others'): the change is
	// answered 423, and apply says what it waits for within the step, then
	// sends it again.
	started := slices.IndexFunc(events, func(e string) bool { return strings.HasPrefix(e, "started shop.main.primary update") })
	others := slices.IndexFunc(events, func(e string) bool { return strings.HasPrefix(e, "others "+shop+" ") })
	done := slices.Index(events, "others done "+shop)
	ended := slices.IndexFunc(events, func(e string) bool { return strings.HasPrefix(e, "ended shop.main.primary update") })
	if started < 0 || others < started || done < others || ended < done || shape(events[len(events)-1]) != "finished" {
		t.Errorf("events %v: want the wait said within the first step, before it ends", events)
	}
	if n := w.emu.Stats().Statuses["423"]; n != 1 {
		t.Errorf("%d answers 423, want 1: the change is sent again once the operation is over", n)
	}
}
