package apply

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// recordEvents applies p with Events going through JSONEvents, as apply
// -json writes them, and reads the lines back: each one JSON object with a
// type and a timestamp.
func recordEvents(t *testing.T, w *world, p *diff.Plan, opts Options) ([]map[string]any, *Report, error) {
	t.Helper()
	var out bytes.Buffer
	opts.Client, opts.State, opts.Events = w.c, w.state, JSONEvents(&out)
	rep, err := Apply(context.Background(), p, opts)
	var events []map[string]any
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var e map[string]any
		if jerr := json.Unmarshal(sc.Bytes(), &e); jerr != nil {
			t.Fatalf("line %q is not a JSON object: %v", sc.Text(), jerr)
		}
		if _, terr := time.Parse(time.RFC3339Nano, e["@timestamp"].(string)); terr != nil || e["type"] == "" || e["@message"] == "" {
			t.Errorf("event %s lacks a type, a timestamp or a message", sc.Text())
		}
		events = append(events, e)
	}
	return events, rep, err
}

// shape is an event's type and step, the order an apply must tell them in.
func shape(e map[string]any) string {
	s := e["type"].(string)
	if a, ok := e["address"].(string); ok {
		s += " " + a + " " + e["action"].(string)
	}
	return s
}

func TestApplyEventsOfACreateAnUpdateAndADelete(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(oneReplica)
	next := strings.Replace(oneReplica, `compute "primary" {}`, `compute "primary" { size = 2 }`, 1)
	next = strings.Replace(next, `compute "reports" {`, `compute "analytics" {`, 1) // reports goes, analytics comes
	p := w.plan(next)

	events, rep, err := recordEvents(t, w, p, Options{Parallelism: 1})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	want := []string{"plan_summary"}
	for _, s := range p.Steps {
		if s.Kind == diff.StepState {
			t.Fatalf("unexpected state-only step %+v", s)
		}
		want = append(want, "step_started "+s.Address+" "+s.Kind.String(), "state_saved", "step_done "+s.Address+" "+s.Kind.String())
	}
	want = append(want, "apply_finished")
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

	sum := events[0]
	if sum["steps"] != float64(3) || sum["summary"].(map[string]any)["create"] != float64(1) || sum["summary"].(map[string]any)["delete"] != float64(1) {
		t.Errorf("plan_summary = %v", sum)
	}
	serial := 0.0
	for _, e := range events {
		switch e["type"] {
		case "state_saved":
			if e["serial"].(float64) <= serial {
				t.Errorf("serials do not grow: %v after %v", e["serial"], serial)
			}
			serial = e["serial"].(float64)
		case "step_done":
			if e["endpoint_id"] == "" || e["elapsed_seconds"] == nil || e["project"] != "shop" || e["project_id"] != shop {
				t.Errorf("step_done lacks its endpoint, project or time: %v", e)
			}
		case "step_started":
			if e["action"] == "update" && e["disruption"] != "restart" {
				t.Errorf("the resize's step_started = %v, want disruption restart", e)
			}
		}
	}
	st, _ := w.state.Read(context.Background())
	if int64(serial) != st.Serial {
		t.Errorf("the last state_saved says serial %v, the state is at %d", serial, st.Serial)
	}
	for _, e := range events {
		if e["type"] == "step_done" && e["action"] == "create" && e["endpoint_id"] != st.Computes["shop.main.analytics"].EndpointID {
			t.Errorf("the create's step_done names %v, the state %s", e["endpoint_id"], st.Computes["shop.main.analytics"].EndpointID)
		}
	}
	fin := events[len(events)-1]
	counts := fin["counts"].(map[string]any)
	if fin["status"] != "complete" || counts["created"] != float64(1) || counts["updated"] != float64(1) || counts["deleted"] != float64(1) ||
		counts["steps_done"] != float64(len(rep.Done)) || fin["@message"] != firstLine(rep.Summary()) {
		t.Errorf("apply_finished = %v", fin)
	}
}

func TestApplyEventsOfAFailedStep(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.refuse("PATCH", "/projects/"+shop+"/", 400, "no, says the test")
	// The primary's name is new: an update, which the service refuses.
	events, _, err := recordEvents(t, w, w.plan(oneReplicaNamed), Options{})
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("want an IncompleteError, got %v", err)
	}
	var got []string
	for _, e := range events {
		got = append(got, shape(e))
	}
	want := "plan_summary\nstep_started shop.main.primary update\nstep_failed shop.main.primary update\napply_finished"
	if strings.Join(got, "\n") != want {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	failed := events[2]
	if !strings.Contains(failed["error"].(string), "no, says the test") || !strings.Contains(failed["@message"].(string), "update failed") {
		t.Errorf("step_failed = %v", failed)
	}
	fin := events[3]
	skipped, _ := fin["not_attempted"].([]any)
	if fin["status"] != "incomplete" || fin["counts"].(map[string]any)["steps_failed"] != float64(1) || len(skipped) != 1 ||
		skipped[0].(map[string]any)["address"] != "shop.main.reports" || !strings.Contains(skipped[0].(map[string]any)["reason"].(string), "failed before it") {
		t.Errorf("apply_finished = %v", fin)
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
	if rep != nil || err == nil {
		t.Fatalf("Apply of a locked state = %v, %v", rep, err)
	}
	if len(events) != 1 || events[0]["type"] != "apply_finished" || events[0]["status"] != "error" ||
		!strings.Contains(events[0]["error"].(string), "someone-else") || !strings.HasPrefix(events[0]["@message"].(string), "Nothing was changed: state is locked") {
		t.Errorf("events = %v, want one apply_finished saying nothing was changed and why", events)
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
	// The run's read of the first project's operations (to learn how long
	// they take) finds the console's: apply waits before the first step.
	if len(events) < 3 || shape(events[1]) != "waiting" || shape(events[2]) != "step_started shop.main.primary update" {
		t.Fatalf("events %v: want the wait between the plan_summary and the first step", events)
	}
	if e := events[1]; e["project"] != "shop" || e["project_id"] != shop || e["operations"].(float64) < 1 ||
		!strings.HasPrefix(e["@message"].(string), "waiting for ") {
		t.Errorf("waiting = %v", e)
	}
}
