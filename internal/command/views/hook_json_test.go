package views

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/suggest"
)

// readEvents reads the lines ApplyJSON wrote: each one JSON object with a
// type, a timestamp and a message.
func readEvents(t *testing.T, out *bytes.Buffer) []map[string]any {
	t.Helper()
	var events []map[string]any
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q is not a JSON object: %v", sc.Text(), err)
		}
		if _, err := time.Parse(time.RFC3339Nano, e["@timestamp"].(string)); err != nil || e["type"] == "" || e["@message"] == "" {
			t.Errorf("event %s lacks a type, a timestamp or a message", sc.Text())
		}
		events = append(events, e)
	}
	return events
}

// Every call of an apply becomes its event, with the words people read as
// its message and the facts in fields.
func TestApplyJSONWritesAnEventForEachCall(t *testing.T) {
	var out bytes.Buffer
	j := NewApplyJSON(&out, func() suggest.Context { return suggest.Context{} }, "plan.json")
	create := diff.Step{ID: 1, Address: "shop.main.reports", Kind: diff.StepCreate, ProjectID: "p-1", Name: "reports", Record: nil}
	update := diff.Step{ID: 2, Address: "shop.main.primary", Kind: diff.StepUpdate, ProjectID: "p-1", EndpointID: "ep-1"}
	p := &diff.Plan{Projects: []diff.Project{{ID: "p-1", Label: "shop"}}, Steps: []diff.Step{create, update}, Summary: diff.Summary{Create: 1, Update: 1}}
	j.PlanChecked(p)
	j.Begin(nil)
	j.OthersRunning("p-1", 2)
	j.OthersRunning("p-1", 1) // told once
	j.OthersDone("p-1")
	j.StepStarted(&update, &diff.Change{Disruption: diff.Restart, Active: true}, false)
	j.StateSaved("neonform.state.json", 4)
	j.StepEnded(&apply.StepResult{Step: update, EndpointID: "ep-1", Elapsed: 1200 * time.Millisecond})
	j.StepNote(&create, apply.Note{Kind: apply.NoteCreateResent})
	j.StepEnded(&apply.StepResult{Step: create, Err: errors.New("no, says the test"), Elapsed: time.Second})
	rep := &apply.Report{Done: []apply.StepResult{{Step: update}}, Failed: []apply.StepResult{{Step: create, Err: errors.New("no, says the test")}},
		Counts: apply.Counts{Updated: 1}, Elapsed: 3 * time.Second}
	j.Finished(rep, &apply.IncompleteError{Failed: 1})
	if !j.Ended() {
		t.Error("the stream is not ended after Finished")
	}
	events := readEvents(t, &out)
	var types []string
	for _, e := range events {
		types = append(types, e["type"].(string))
	}
	if got, want := strings.Join(types, " "), "plan_summary waiting step_started state_saved step_done step_note step_failed apply_finished"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if e := events[0]; e["steps"] != float64(2) || e["summary"].(map[string]any)["create"] != float64(1) ||
		!strings.HasPrefix(e["@message"].(string), "Applying the plan: ") {
		t.Errorf("plan_summary = %v", e)
	}
	if e := events[1]; e["project"] != "shop" || e["project_id"] != "p-1" || e["operations"] != float64(2) ||
		e["@message"] != "waiting for 2 operations on project shop started outside this run..." {
		t.Errorf("waiting = %v", e)
	}
	if e := events[2]; e["disruption"] != "restart" || e["step"] != float64(2) || e["action"] != "update" ||
		e["@message"] != "shop.main.primary: updating ep-1 (restart: active at plan time, its connections drop)..." {
		t.Errorf("step_started = %v", e)
	}
	if e := events[3]; e["serial"] != float64(4) || e["@message"] != "saved the state (neonform.state.json) at serial 4" {
		t.Errorf("state_saved = %v", e)
	}
	if e := events[4]; e["endpoint_id"] != "ep-1" || e["elapsed_seconds"] != 1.2 || e["project"] != "shop" {
		t.Errorf("step_done = %v", e)
	}
	if e := events[5]; !strings.Contains(e["@message"].(string), "the answer to the create was lost and it made nothing") {
		t.Errorf("step_note = %v", e)
	}
	if e := events[6]; e["error"] != "no, says the test" || !strings.Contains(e["@message"].(string), "create failed after 1s") {
		t.Errorf("step_failed = %v", e)
	}
	fin := events[7]
	if counts := fin["counts"].(map[string]any); fin["status"] != "incomplete" || counts["updated"] != float64(1) || counts["steps_failed"] != float64(1) ||
		fin["@message"] != firstLine(Summary(rep, suggest.Context{})) {
		t.Errorf("apply_finished = %v", fin)
	}
}

func TestApplyJSONOfARefusedApply(t *testing.T) {
	var out bytes.Buffer
	j := NewApplyJSON(&out, func() suggest.Context { return suggest.Context{} }, "")
	j.Finished(nil, errors.New("state is locked by someone-else"))
	events := readEvents(t, &out)
	if len(events) != 1 || events[0]["type"] != "apply_finished" || events[0]["status"] != "error" ||
		events[0]["@message"] != "Nothing was changed: state is locked by someone-else" {
		t.Errorf("events = %v, want one apply_finished saying nothing was changed and why", events)
	}
}

func TestApplyJSONOfNothingToDo(t *testing.T) {
	var out bytes.Buffer
	j := NewApplyJSON(&out, func() suggest.Context { return suggest.Context{} }, "")
	j.PlanChecked(&diff.Plan{})
	if events := readEvents(t, &out); len(events) != 1 || events[0]["@message"] != "The plan has no changes: nothing to do." || events[0]["steps"] != float64(0) {
		t.Errorf("events = %v", events)
	}
}
