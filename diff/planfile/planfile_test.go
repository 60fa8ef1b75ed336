package planfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/state"
)

// The same inputs give the same plan file byte for byte, apart from
// created_at, whatever order the service lists endpoints or the
// configuration lists projects in.
func TestPlanFileIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	var files [][]byte
	for i, reverse := range []bool{false, true, false} {
		cfg, st, live := plantest.BusyScenario(reverse)
		opts := plantest.Opts
		opts.Now = plantest.Opts.Now.Add(time.Duration(i) * time.Hour)
		p, diags := diff.Build(cfg, st, live, opts)
		if diags.HasErrors() {
			t.Fatal(diags.String())
		}
		path := filepath.Join(dir, "plan.json")
		if err := WriteFile(path, p); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	strip := func(b []byte) string {
		var lines []string
		for _, l := range strings.Split(string(b), "\n") {
			if !strings.HasPrefix(l, `  "created_at": `) {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	if bytes.Equal(files[0], files[1]) {
		t.Fatalf("created_at did not change between runs an hour apart")
	}
	for i := 1; i < len(files); i++ {
		if d := cmp.Diff(strip(files[0]), strip(files[i])); d != "" {
			t.Errorf("run %d differs from run 0 beyond created_at:\n%s", i, d)
		}
	}
	// The scenario really has something of everything.
	var p diff.Plan
	if err := json.Unmarshal(files[0], &p); err != nil {
		t.Fatal(err)
	}
	if p.Summary.Create != 1 || p.Summary.Update != 3 || p.Summary.Replace != 1 || p.Summary.Delete != 1 || len(p.Drift) != 2 || len(p.Unmanaged) != 1 {
		t.Errorf("summary %+v, %d drift, %d unmanaged; the scenario lost its variety", p.Summary, len(p.Drift), len(p.Unmanaged))
	}
}

// The file is JSON in the documented shape, owner-only, and reads back to the
// same plan; every list is a list, never null.
func TestPlanFileRoundTrip(t *testing.T) {
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", info.Mode().Perm())
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The requests of the steps are not in the file: apply derives them again.
	if d := cmp.Diff(p, back, cmpopts.IgnoreFields(diff.Step{}, "Create", "Update")); d != "" {
		t.Errorf("read back differs:\n%s", d)
	}
	// Rendering the saved plan gives what rendering the fresh one gives.
	var a, b strings.Builder
	view.Human(&a, p, view.HumanOptions{})
	view.Human(&b, back, view.HumanOptions{})
	if a.String() != b.String() {
		t.Errorf("a saved plan renders differently:\n%s", cmp.Diff(a.String(), b.String()))
	}

	raw, _ := os.ReadFile(path)
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"format_version", "tool_version", "created_at", "api_url", "config_digest", "config_files", "state", "projects", "summary", "changes", "steps", "drift", "unmanaged", "warnings"} {
		if _, ok := doc[key]; !ok {
			t.Errorf("plan file has no %q", key)
		}
	}
	empty := plantest.MustBuild(t, difftest.CfgOf(), nil, plantest.LiveOf())
	var buf bytes.Buffer
	if err := RenderJSON(&buf, empty); err != nil {
		t.Fatal(err)
	}
	// The cost says null for what it cannot say (no price here), on purpose;
	// nothing else is ever null.
	var emptyDoc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &emptyDoc); err != nil {
		t.Fatal(err)
	}
	if _, ok := emptyDoc["cost"]; !ok {
		t.Errorf("an empty plan has no cost")
	}
	delete(emptyDoc, "cost")
	if rest, _ := json.Marshal(emptyDoc); strings.Contains(string(rest), "null") {
		t.Errorf("an empty plan has nulls:\n%s", buf.String())
	}
}

// A plan made against a state never written records no lineage (a missing
// state gets a new one at every read); one made against a written state
// records its lineage and serial.
func TestPlanRecordsTheState(t *testing.T) {
	fresh := state.New()
	p := plantest.MustBuild(t, difftest.CfgOf(), fresh, plantest.LiveOf())
	if p.State != (diff.StateRef{}) {
		t.Errorf("state = %+v, want none for a state never written", p.State)
	}
	st := plantest.StateWith(difftest.Proj, nil)
	p = plantest.MustBuild(t, difftest.CfgOf(), st, plantest.LiveOf())
	if p.State != (diff.StateRef{Lineage: st.Lineage, Serial: 7}) {
		t.Errorf("state = %+v, want lineage %s serial 7", p.State, st.Lineage)
	}
}

// ReadFile refuses what is not a plan it can read, saying why and what to do.
func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, content, want string
	}{
		{"newer.json", `{"format_version": 99, "tool_version": "9.0.0"}`, "was written by neonform 9.0.0 in plan format 99, but this neonform reads format 5 at most"},
		{"older.json", `{"format_version": 1, "tool_version": "0.1.0", "steps": []}`, "was written by neonform 0.1.0 in plan format 1, which this neonform no longer reads (it reads format 5)"},
		{"reasons_as_sentences.json", `{"format_version": 2, "tool_version": "0.9.0", "steps": [], "changes": [{"reasons": ["new read replica"]}]}`,
			"was written by neonform 0.9.0 in plan format 2, which this neonform no longer reads (it reads format 5); make a new plan with"},
		{"reasons_with_words.json", `{"format_version": 3, "tool_version": "0.10.0", "steps": [], "changes": [{"reasons": [{"kind": "new_compute", "text": "new read replica"}]}]}`,
			"was written by neonform 0.10.0 in plan format 3, which this neonform no longer reads (it reads format 5); make a new plan with"},
		{"whole_serial.json", `{"format_version": 4, "tool_version": "0.11.0", "steps": [], "state": {"lineage": "x", "serial": 3}}`,
			"was written by neonform 0.11.0 in plan format 4, which this neonform no longer reads (it reads format 5); make a new plan with"},
		{"other.json", `{"lineage": "x", "serial": 3}`, "is not a neonform plan (it has no format_version)"},
		{"state.json", `{"format_version": 1, "lineage": "x", "serial": 3, "computes": {}}`, "is a neonform state file, not a plan"},
		{"nosteps.json", `{"format_version": 5, "changes": []}`, "is not a neonform plan (it has no steps)"},
		{"cut.json", "{\n  \"format_version\": 5,\n  \"changes\": [\n", "is not a valid plan file at line 4"},
		{"typed.json", "{\n  \"format_version\": 5,\n  \"steps\": []\n,  \"summary\": 5\n}", "is not a valid plan file at line 4 (field summary)"},
		{"twice.json", `{"format_version": 5, "steps": []} {"format_version": 5}`, "is not a valid plan file at line 1: invalid character '{' after top-level value"},
		{"action.json", `{"format_version": 5, "steps": [], "changes": [{"action": "explode"}]}`, `unknown action "explode"`},
	} {
		path := filepath.Join(dir, tt.name)
		os.WriteFile(path, []byte(tt.content), 0o600)
		_, err := ReadFile(path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "reading the plan") {
		t.Errorf("missing file: %v", err)
	}
}

// The live digest depends on what a plan depends on, not on the order the
// service lists endpoints in, nor on whether a compute is active or idle.
func TestLiveDigest(t *testing.T) {
	a := difftest.Endpoint("ep-a", difftest.BrMain, difftest.RW, difftest.EpName("a"))
	b := difftest.Endpoint("ep-b", difftest.BrMain, difftest.RO, difftest.EpName("b"), difftest.EpPG("work_mem", "4MB"))
	base := diff.LiveDigest([]api.Endpoint{a, b})
	if !strings.HasPrefix(base, "sha256:") || len(base) != len("sha256:")+64 {
		t.Fatalf("digest = %q", base)
	}
	if diff.LiveDigest([]api.Endpoint{b, a}) != base {
		t.Errorf("the digest depends on the order of the endpoints")
	}
	awake := a
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	awake.CurrentState, awake.LastActive = api.EndpointStateActive, &now
	if diff.LiveDigest([]api.Endpoint{awake, b}) != base {
		t.Errorf("a compute waking up changes the digest")
	}
	for name, change := range map[string]func(e *api.Endpoint){
		"max_cu":      func(e *api.Endpoint) { e.AutoscalingLimitMaxCU = 2 },
		"min_cu":      func(e *api.Endpoint) { e.AutoscalingLimitMinCU = 0.5 },
		"branch":      func(e *api.Endpoint) { e.BranchID = difftest.BrDev },
		"name":        func(e *api.Endpoint) { e.Name = "x" },
		"disabled":    func(e *api.Endpoint) { e.Disabled = true },
		"suspend":     func(e *api.Endpoint) { e.SuspendTimeoutSeconds = 60 },
		"pg_settings": func(e *api.Endpoint) { e.Settings.PgSettings = map[string]string{"jit": "on"} },
		"type":        func(e *api.Endpoint) { e.Type = difftest.RO },
	} {
		c := a
		change(&c)
		if diff.LiveDigest([]api.Endpoint{c, b}) == base {
			t.Errorf("changing %s does not change the digest", name)
		}
	}
	if diff.LiveDigest([]api.Endpoint{a}) == base {
		t.Errorf("removing an endpoint does not change the digest")
	}
}

func TestConfigDigest(t *testing.T) {
	files := map[string][]byte{"a.hcl": []byte("x = 1\n"), "b.hcl": []byte("y = 2\n")}
	d := diff.ConfigDigest(files)
	if diff.ConfigDigest(map[string][]byte{"b.hcl": []byte("y = 2\n"), "a.hcl": []byte("x = 1\n")}) != d {
		t.Errorf("the digest depends on map order")
	}
	if diff.ConfigDigest(map[string][]byte{"a.hcl": []byte("x = 1\ny"), "b.hcl": []byte(" = 2\n")}) == d {
		t.Errorf("moving bytes from one file to the next does not change the digest")
	}
	if diff.ConfigDigest(map[string][]byte{"a.hcl": []byte("x = 1\n"), "c.hcl": []byte("y = 2\n")}) == d {
		t.Errorf("renaming a file does not change the digest")
	}
}

// -out replaces a plan, whole, cut short or in another format version, and
// nothing else, however the file starts.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	written := filepath.Join(dir, "written.json")
	cfg, st, live := plantest.BusyScenario(false)
	p, diags := diff.Build(cfg, st, live, plantest.Opts)
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	if err := WriteFile(written, p); err != nil {
		t.Fatal(err)
	}
	if err := CheckWritable(written); err != nil {
		t.Errorf("a plan file: %v", err)
	}
	for _, tt := range []struct {
		name, content, want string
	}{
		{"old.json", `{"format_version": 1, "tool_version": "0.1.0", "steps": []}`, ""},
		{"cut.json", "{\n  \"format_version\": 2,\n  \"tool_version\": \"0.1", ""},
		{"keys.json", `{"steps": [], "format_version": 2}`, ""},
		{"state.json", `{"format_version": 1, "lineage": "x", "serial": 3, "computes": {}}`, "it is a neonform state file"},
		{"version.json", `{"format_version": "2", "tool_version": "x", "computes": {}}`, "it is a file that is not JSON"},
		{"other.json", `{"tool_version": "x", "format_version": 2}`, "it is a JSON file"},
		{"text.txt", `format_version tool_version`, "it is a file that is not JSON"},
	} {
		path := filepath.Join(dir, tt.name)
		os.WriteFile(path, []byte(tt.content), 0o600)
		err := CheckWritable(path)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}
