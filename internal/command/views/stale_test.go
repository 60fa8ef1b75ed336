package views

import (
	"errors"
	"strings"
	"testing"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
)

// A stale plan's facts are worded once, for people and as diagnostics: the
// entries of one project in one sentence, the attributes of one endpoint in
// another, each diagnostic about the compute it names.
func TestStaleWords(t *testing.T) {
	e := &apply.StaleError{State: "local file s.json", Facts: []apply.StaleFact{
		{Kind: apply.StaleEntryRemoved, Project: "svc", ProjectID: "p-1", Address: "svc.main.a"},
		{Kind: apply.StaleEntryAdded, Project: "svc", ProjectID: "p-1", Address: "svc.main.b"},
		{Kind: apply.StaleEntryChanged, Project: "web", ProjectID: "p-2", Address: "web.main.c"},
		{Kind: apply.StaleAttribute, Project: "svc", EndpointID: "ep-1", Address: "svc.main.a", Attribute: "max_cu", Was: "2", Now: "4"},
		{Kind: apply.StaleAttribute, Project: "svc", EndpointID: "ep-1", Address: "svc.main.a", Attribute: "min_cu", Was: "1", Now: "0.5"},
		{Kind: apply.StaleEndpointCreated, Project: "svc", EndpointID: "ep-2", Type: "read_only", Name: "r", BranchID: "br-1"},
		{Kind: apply.StaleEndpointDeleted, Project: "svc", EndpointID: "ep-3"},
		{Kind: apply.StaleDefaults, Address: "svc.defaults", Attribute: "max_cu", Was: "1", Now: "2"},
		{Kind: apply.StaleLive, Project: "svc", ProjectID: "p-1"},
	}}
	want := "the plan is stale, so nothing was changed:\n" +
		"  - the state in local file s.json changed since the plan was made, in project svc, which the plan changes: svc.main.a was removed, svc.main.b was added (another apply, import or state command ran in between)\n" +
		"  - the state in local file s.json changed since the plan was made, in project web, which the plan changes: web.main.c changed (another apply, import or state command ran in between)\n" +
		"  - ep-1 (svc.main.a): max_cu is 4 now, was 2 when planned, min_cu is 0.5 now, was 1 when planned\n" +
		"  - svc: ep-2 (read_only named \"r\") was created on branch br-1 since the plan\n" +
		"  - svc: ep-3 was deleted since the plan\n" +
		"  - the compute defaults of svc.defaults changed since the plan: max_cu 1 -> 2\n" +
		"  - svc (id p-1): the live endpoints differ from the plan\n" +
		"Run `neonform plan` again, review the new plan, and apply it."
	if got := StaleText(e); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	ds := StaleDiagnostics(e)
	addrs := make([]string, len(ds))
	for i, d := range ds {
		addrs[i] = d.Address
		if d.Summary != "Plan is stale" || !strings.HasSuffix(d.Detail, ". "+rerun) {
			t.Errorf("diagnostic %+v", d)
		}
	}
	if got := strings.Join(addrs, ","); got != ",web.main.c,svc.main.a,,,svc.defaults," {
		t.Errorf("the diagnostics are about %q", got)
	}
	for _, f := range []apply.StaleFact{{Kind: apply.StaleLineage, Now: "l-2"}, {Kind: apply.StaleOlder, Was: "3", Now: "2"}, {Kind: apply.StaleWritten, Was: "3", Now: "4"}} {
		got := StaleText(&apply.StaleError{State: "here", Facts: []apply.StaleFact{f}})
		for _, w := range []string{"the state in here", f.Now} {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not say %q", f.Kind, got, w)
			}
		}
	}
}

// Refusal words a stale plan's refusal for people and keeps what the
// callers look for with errors.As: the facts and the diagnostics.
func TestRefusalOfAStalePlan(t *testing.T) {
	e := &apply.StaleError{State: "here", Facts: []apply.StaleFact{{Kind: apply.StaleEntryAdded, Project: "svc", Address: "svc.main.a"}}}
	err := Refusal(e)
	var stale *apply.StaleError
	var de *diag.Error
	if err.Error() != StaleText(e) || !errors.As(err, &stale) || !errors.As(err, &de) || len(de.Diagnostics) != 1 || de.Diagnostics[0].Address != "svc.main.a" {
		t.Errorf("got %v", err)
	}
	other := errors.New("x")
	if Refusal(other) != other {
		t.Errorf("another error is changed")
	}
	ev := finishedEvent(nil, e, suggest.Context{})
	if ev.Error != StaleText(e) || len(ev.Diagnostics) != 1 {
		t.Errorf("apply -json's end: %+v", ev)
	}
}
