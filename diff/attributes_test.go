package diff

import (
	"context"
	"encoding/json"
	"maps"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/state"
)

// attributeSamples gives each entry of the attribute table two values, as a
// compute block writes them, and what changing the first to the second does
// to a running compute. An entry without samples fails
// TestEveryAttributeIsWiredThroughEveryUse: adding an attribute means adding
// its line here.
var attributeSamples = map[string]struct {
	// hcl is the compute block's body for each value; branch, its branch.
	hcl    [2]string
	branch [2]string
	effect Disruption
	// sensitive is a body whose second value comes from a sensitive
	// variable v; "" when the compute block cannot set the attribute.
	sensitive string
	// size: it is one end of the compute's size, which a sensitive
	// variable at either end hides whole (validate, the plan's size line).
	size bool
}{
	"type":            {hcl: [2]string{`type = "read_write"`, `type = "read_only"`}, effect: Recreate, sensitive: `type = var.v`},
	"branch":          {branch: [2]string{"br-first", "br-second"}, effect: Suspend},
	"min_cu":          {hcl: [2]string{"min_cu = 0.25\nmax_cu = 4", "min_cu = 1\nmax_cu = 4"}, effect: Restart, sensitive: "min_cu = var.v\nmax_cu = 4", size: true},
	"max_cu":          {hcl: [2]string{"min_cu = 0.25\nmax_cu = 2", "min_cu = 0.25\nmax_cu = 4"}, effect: Restart, sensitive: "min_cu = 0.25\nmax_cu = var.v", size: true},
	"pg_settings":     {hcl: [2]string{`pg_settings = { work_mem = "4MB" }`, `pg_settings = { jit = "off", work_mem = "64MB" }`}, effect: Restart, sensitive: `pg_settings = var.v`},
	"suspend_timeout": {hcl: [2]string{`suspend_timeout = "10m"`, `suspend_timeout = "never"`}, effect: None, sensitive: `suspend_timeout = var.v`},
	"name":            {hcl: [2]string{`name = "first"`, `name = "second"`}, effect: None, sensitive: `name = var.v`},
	"disabled":        {hcl: [2]string{`disabled = false`, `disabled = true`}, effect: Suspend, sensitive: `disabled = var.v`},
}

// sensitiveValues is the second value of each sample, as a variable's default.
var sensitiveValues = map[string]string{
	"type": `"read_only"`, "min_cu": "1", "max_cu": "4", "pg_settings": `{ jit = "off", work_mem = "64MB" }`,
	"suspend_timeout": `"never"`, "name": `"second"`, "disabled": "true",
}

// Every attribute of the table, walked through every use: read from a
// compute block, compared, sent in a create and in an update to the
// emulator and read back live, recorded in the state and read back, carried
// in a plan file and read back, digested, explained, checked after a lost
// answer, shown to people, and hidden when sensitive.
func TestEveryAttributeIsWiredThroughEveryUse(t *testing.T) {
	emu, err := emulator.New(emulator.Options{RatePerMinute: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	const project = "quiet-meadow-52817364"
	if _, err := emu.EnsureProject(project, "table"); err != nil {
		t.Fatal(err)
	}
	var branches [2]string
	for i, name := range []string{"first", "second"} {
		b, _, err := emu.EnsureBranch(project, name)
		if err != nil {
			t.Fatal(err)
		}
		branches[i] = b.ID
	}
	srv := httptest.NewServer(emu.Handler())
	defer srv.Close()
	client, err := api.New(api.Options{BaseURL: srv.URL + "/api/v2", APIKey: emu.APIKey(), RatePerMinute: -1})
	if err != nil {
		t.Fatal(err)
	}

	seen := map[string]bool{}
	for _, at := range managed.InPlan {
		name := at.Name
		seen[name] = true
		sample, ok := attributeSamples[name]
		if !ok {
			t.Errorf("attribute %s has no samples in attributeSamples: add two values and the effect of changing one to the other", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			var v [2]Values
			for i := range v {
				branch := branches[0]
				if sample.branch[i] != "" {
					branch = branches[i]
				}
				// Read replicas, so that two of them may live on one branch.
				body := sample.hcl[i]
				if !strings.Contains(body, "type") {
					body += "\ntype = \"read_only\""
				}
				v[i] = ConfiguredValues(computeFrom(t, body, ""), branch)
			}
			owned := func(attrs []Attribute) bool {
				for _, a := range attrs {
					if managed.Named(a.Name) != at {
						return false
					}
				}
				return len(attrs) > 0
			}

			// Comparison: the samples differ in this attribute alone, with its effect.
			diffs := Differences(v[0], v[1])
			if !owned(diffs) {
				t.Fatalf("the samples must differ in %s alone, they differ in %v", name, diffs)
			}
			for _, a := range diffs {
				if a.Effect != sample.effect {
					t.Errorf("changing %s: effect %s, want %s", a.Name, a.Effect, sample.effect)
				}
			}
			if d := Differences(v[0], v[0]); len(d) != 0 {
				t.Errorf("a value differs from itself: %v", d)
			}
			if d := ExactDifferences(v[0], v[1]); !owned(d) {
				t.Errorf("exact comparison: %v", d)
			}

			// Its value is under its own key in a plan's and the state's
			// JSON, and under the service's field in a request: what the
			// redacted plan hides.
			m := at
			if keys := changedKeys(t, v[0], v[1]); !slices.Equal(keys, []string{m.Key}) {
				t.Errorf("%s: the plan's values differ at %v, want managed.%s.Key %q", name, keys, name, m.Key)
			}
			if keys := changedKeys(t, v[0].Record("ep-x", project, false), v[1].Record("ep-x", project, false)); !slices.Equal(keys, []string{m.Key}) {
				t.Errorf("%s: the state's entries differ at %v, want managed.%s.Key %q", name, keys, name, m.Key)
			}
			if keys := changedKeys(t, v[0].createRequest(), v[1].createRequest()); !slices.Equal(keys, []string{m.API}) {
				t.Errorf("%s: the creates differ at %v, want managed.%s.API %q", name, keys, name, m.API)
			}

			// A create sends it, and the service has it.
			second, err := client.CreateEndpoint(context.Background(), project, *v[1].createRequest())
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			if d := ExactDifferences(v[1], LiveValues(&second.Endpoint)); len(d) != 0 {
				t.Errorf("created with %+v, the service has %v different", v[1], d)
			}
			if _, err := client.DeleteEndpoint(context.Background(), project, second.Endpoint.ID); err != nil {
				t.Fatal(err)
			}
			created, err := client.CreateEndpoint(context.Background(), project, *v[0].createRequest())
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			live := func() *api.Endpoint {
				ep, err := client.GetEndpoint(context.Background(), project, created.Endpoint.ID)
				if err != nil {
					t.Fatal(err)
				}
				return ep
			}
			ep := live()
			if d := ExactDifferences(v[0], LiveValues(ep)); len(d) != 0 {
				t.Fatalf("created with %+v, the service has %v different", v[0], d)
			}
			if !InPlace(ep, v[0]) || InPlace(ep, v[1]) {
				t.Errorf("the lost-answer check does not tell the two values apart")
			}
			if LiveDigest([]api.Endpoint{*ep}) == LiveDigest([]api.Endpoint{withValues(*ep, v[1])}) {
				t.Errorf("the live digest does not notice a change of %s", name)
			}

			// An update sends it, or says it cannot (a recreate).
			req, ok := updateRequest(v[0], v[1])
			if ok != (sample.effect != Recreate) {
				t.Fatalf("an update can change %s: %v, want %v", name, ok, sample.effect != Recreate)
			}
			if ok {
				if _, err := client.UpdateEndpoint(context.Background(), project, created.Endpoint.ID, req); err != nil {
					t.Fatalf("update: %v", err)
				}
				if d := ExactDifferences(v[1], LiveValues(live())); len(d) != 0 {
					t.Errorf("updated to %+v, the service has %v different", v[1], d)
				}
			}
			if _, err := client.DeleteEndpoint(context.Background(), project, created.Endpoint.ID); err != nil {
				t.Fatal(err)
			}

			// The state records it, and reads it back from its file.
			st := state.New()
			st.Computes["p.b.c"] = v[1].Record("ep-x", project, false)
			b, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			var back state.State
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if d := ExactDifferences(v[1], AppliedValues(back.Computes["p.b.c"])); len(d) != 0 {
				t.Errorf("the state reads back %v different", d)
			}

			// A plan file carries the change, and its values come back.
			b, err = json.Marshal(diffs)
			if err != nil {
				t.Fatal(err)
			}
			var read []Attribute
			if err := json.Unmarshal(b, &read); err != nil {
				t.Fatal(err)
			}
			got := v[0].clone()
			for _, a := range read {
				if err := at.SetAfter(got.table(), a); err != nil {
					t.Fatal(err)
				}
				before, after := a.Values()
				if before == after || before == "" || after == "" {
					t.Errorf("%s is shown as %q -> %q", a.Name, before, after)
				}
			}
			if d := ExactDifferences(v[1], got); len(d) != 0 {
				t.Errorf("read back from the plan, the change makes %v different", d)
			}
			// A create lists it, and its values come back the same way.
			made := Values{Applied: managed.Applied{PgSettings: map[string]string{}}}
			for _, a := range v[1].every() {
				if err := managed.Named(a.Name).SetAfter(made.table(), a); err != nil {
					t.Fatal(err)
				}
			}
			if d := ExactDifferences(v[1], made); len(d) != 0 {
				t.Errorf("a create's attributes make %v different", d)
			}

			// generate writes it with the compute block's own arguments, and
			// a block of what it writes asks for the same values again.
			args := at.Write(v[1].table())
			for _, a := range args {
				if !at.SetBy(a.Name) {
					t.Errorf("%s is written as %s, which managed.%s.Arguments does not list", name, a.Name, name)
				}
			}
			if (len(args) > 0) != (len(at.Arguments) > 0) {
				t.Errorf("%s is written as %v, but its arguments are %v", name, args, at.Arguments)
			}
			empty := ConfiguredValues(computeFrom(t, "", ""), v[1].BranchID)
			args, err = BlockArguments(empty, v[1])
			if err != nil {
				t.Fatal(err)
			}
			f := hclwrite.NewEmptyFile()
			for _, a := range args {
				f.Body().SetAttributeValue(a.Name, a.Value)
			}
			if d := Differences(v[1], ConfiguredValues(computeFrom(t, string(f.Bytes()), ""), v[1].BranchID)); len(d) != 0 {
				t.Errorf("generate writes\n%s\nwhich reads back %v different", f.Bytes(), d)
			}

			// People see it.
			var row string
			for _, r := range v[1].Rows() {
				if r.Name == name {
					row = r.Value
				}
			}
			if row == "" {
				t.Errorf("Rows does not show %s", name)
			}

			// And it is hidden when a sensitive variable gives it.
			if sample.sensitive != "" {
				c := computeFrom(t, sample.sensitive, sensitiveValues[name])
				if !at.Sensitive(c.Sensitive) {
					t.Errorf("%s from a sensitive variable is not marked sensitive", name)
				}
				// validate and the plan hide a size whole.
				if SizeSensitive(c) != sample.size {
					t.Errorf("%s from a sensitive variable: the size is hidden %v, want %v", name, SizeSensitive(c), sample.size)
				}
				if at.Sensitive(computeFrom(t, sample.hcl[1], "").Sensitive) {
					t.Errorf("%s from a literal is marked sensitive", name)
				}
			}
		})
	}
	for name := range attributeSamples {
		if !seen[name] {
			t.Errorf("attributeSamples has %s, which the table does not", name)
		}
	}
}

// Each entry of the table names what every package knows of it
// (internal/managed), and each of those is in the table once: a plan
// attribute the configuration cannot name, or an argument no plan compares,
// fails here. What an entry must define:
//   - its name, the same in the plan and in internal/managed, found again
//     from the plan's name (managed.Named);
//   - the service's field for it, a field of the API's endpoint;
//   - the compute block's arguments that set it, which the samples of
//     TestEveryAttributeIsWiredThroughEveryUse write (so config parses
//     each into the attribute) and nothing else does;
//   - its place: a block a misplaced argument is sent to (Home), or none;
//   - its default: what a compute block that leaves it out asks for
//     (managed.Attribute.Default), which config applies and generate and
//     the views leave out.
func TestEveryAttributeIsDescribedOnce(t *testing.T) {
	empty := ConfiguredValues(computeFrom(t, "", ""), "br-place")
	fields := map[string]bool{}
	for f := range reflect.TypeFor[api.Endpoint]().Fields() {
		fields[strings.Split(f.Tag.Get("json"), ",")[0]] = true
	}
	described := map[*managed.Attribute]int{}
	for _, at := range managed.InPlan {
		m := at
		if m == nil {
			t.Errorf("%s names no internal/managed attribute", at.Name)
			continue
		}
		described[m]++
		if m.Name != at.Name {
			t.Errorf("the table's %s is internal/managed's %s", at.Name, m.Name)
		}
		if !slices.Contains(managed.All, m) {
			t.Errorf("%s is not in managed.All, from which config takes its arguments", m.Name)
		}
		if !fields[m.API] {
			t.Errorf("%s: the service's endpoint has no field %q", m.Name, m.API)
		}
		if m.Home != "" && len(m.Arguments) == 0 {
			t.Errorf("%s has a home block but no argument to write in it", m.Name)
		}
		sample := attributeSamples[m.Name]
		for _, body := range sample.hcl {
			if body == "" {
				continue
			}
			for _, line := range strings.Split(body, "\n") {
				arg, _, _ := strings.Cut(line, " = ")
				if !m.SetBy(arg) {
					t.Errorf("%s: its sample sets %s, which managed.%s.Arguments does not list", m.Name, arg, m.Name)
				}
			}
		}
		if len(m.Arguments) > 0 && sample.hcl[0] == "" {
			t.Errorf("%s: the compute block sets it (%v), but its samples write no argument", m.Name, m.Arguments)
		}
		if !m.Default.Decided() {
			t.Errorf("%s: its default is not decided: say its value, the label or the place", m.Name)
		}
		for _, a := range ofAttribute(empty.every(), at) {
			switch d := m.Default; {
			case d.Placed && a.After != "br-place":
				t.Errorf("%s: an empty block asks for %v, not its place", m.Name, a.After)
			case d.Label && a.After != "c":
				t.Errorf("%s: an empty block labelled c asks for %v, not its label", m.Name, a.After)
			case d.Value != nil && !at.AtDefault(a.After):
				t.Errorf("%s: an empty block asks for %v, not its default %v", a.Name, a.After, d.Value)
			}
		}
		for _, planName := range []string{m.Name, m.Name + ".work_mem"} {
			// A keyed attribute's plan names are its keys'; another's, its name.
			if got := managed.Named(planName); (got == m) != ((planName == m.Name) != m.Keyed) {
				t.Errorf("%q: internal/managed finds it %v", planName, got == m)
			}
		}
	}
	for _, m := range managed.All {
		if described[m] != 1 {
			t.Errorf("the table has %d entries of internal/managed's %s, want 1", described[m], m.Name)
		}
	}
}

// The suspend timeout's default is 300 s: "5m" in the configuration and 0
// live are equal, so nothing is planned, and a lost answer that left 0 live
// for a "5m" change is in place. Exactly, they differ: a digest notices.
func TestSuspendDefaultEqualsFiveMinutes(t *testing.T) {
	fiveMinutes := Values{Applied: managed.Applied{SuspendTimeoutSeconds: 300, PgSettings: map[string]string{}}}
	serviceDefault := Values{Applied: managed.Applied{SuspendTimeoutSeconds: 0, PgSettings: map[string]string{}}}
	if d := Differences(serviceDefault, fiveMinutes); len(d) != 0 {
		t.Errorf("0 and 300 differ: %v", d)
	}
	if !InPlace(&api.Endpoint{SuspendTimeoutSeconds: 0}, fiveMinutes) {
		t.Errorf("a live 0 is not in place for 300")
	}
	if d := ExactDifferences(serviceDefault, fiveMinutes); len(d) != 1 {
		t.Errorf("exactly, 0 and 300 differ: %v", d)
	}
}

// changedKeys lists the keys of the JSON objects a and b whose values
// differ, looking into the state's applied values.
func changedKeys(t *testing.T, a, b any) []string {
	t.Helper()
	var objects [2]map[string]json.RawMessage
	for i, x := range []any{a, b} {
		raw, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &objects[i]); err != nil {
			t.Fatal(err)
		}
		if applied, ok := objects[i]["applied"]; ok {
			delete(objects[i], "applied")
			var inner map[string]json.RawMessage
			if err := json.Unmarshal(applied, &inner); err != nil {
				t.Fatal(err)
			}
			maps.Copy(objects[i], inner)
		}
	}
	var out []string
	for k := range objects[0] {
		if string(objects[0][k]) != string(objects[1][k]) {
			out = append(out, k)
		}
	}
	for k := range objects[1] {
		if _, ok := objects[0][k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// computeFrom decodes one compute block with body, and a sensitive variable
// v of the given default when it is not "".
func computeFrom(t *testing.T, body, sensitiveDefault string) *config.Compute {
	t.Helper()
	src := "project \"p\" {\n  id = \"quiet-meadow-52817364\"\n  branch \"b\" {\n    compute \"c\" {\n" + body + "\n    }\n  }\n}\n"
	if sensitiveDefault != "" {
		src = "variable \"v\" {\n  sensitive = true\n  default = " + sensitiveDefault + "\n}\n" + src
	}
	cfg, diags := config.LoadSources(".", map[string][]byte{"main.hcl": []byte(src)}, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("config:\n%s\n%s", src, diags.String())
	}
	return cfg.Compute("p.b.c")
}

// withValues is ep with the managed values of v, through the service's JSON.
func withValues(ep api.Endpoint, v Values) api.Endpoint {
	b, _ := json.Marshal(api.EndpointCreateRequest{Endpoint: *v.createRequest()})
	var req struct{ Endpoint api.Endpoint }
	json.Unmarshal(b, &req)
	req.Endpoint.ID = ep.ID
	return req.Endpoint
}

// ofAttribute are the plan attributes of attrs that are at's.
func ofAttribute(attrs []Attribute, at *managed.Attribute) []Attribute {
	var out []Attribute
	for _, a := range attrs {
		if managed.Named(a.Name) == at {
			out = append(out, a)
		}
	}
	return out
}
