package generate

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/fetch"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/state"
)

// world is an account with what generate must describe: a renamed primary
// with an autoscaling range, Postgres settings and a suspend timeout;
// replicas of fixed and autoscaling size; a replica without a name; a branch
// whose name is no label; a disabled compute; two projects of one name.
const world = `{
  "format_version": 1,
  "users": [{"id": "u-ada", "name": "Ada", "email": "ada@example.com"}],
  "projects": [
    {
      "id": "dark-sun-46453911", "name": "Shop",
      "branches": [
        {"id": "br-withered-paper-a5o7qhfg", "name": "main", "default": true},
        {"id": "br-late-moon-a5k2d9x1", "name": "Feature/X", "parent_id": "br-withered-paper-a5o7qhfg"}
      ],
      "endpoints": [
        {"id": "ep-cool-darkness-a5b6c7d8", "branch_id": "br-withered-paper-a5o7qhfg", "type": "read_write", "name": "writer",
         "autoscaling_limit_min_cu": 0.25, "autoscaling_limit_max_cu": 2, "suspend_timeout_seconds": 600,
         "pg_settings": {"work_mem": "64MB", "pg_stat_statements.track": "all"}},
        {"id": "ep-shrill-boat-a5ez4tdt", "branch_id": "br-withered-paper-a5o7qhfg", "type": "read_only", "name": "reports",
         "autoscaling_limit_min_cu": 2, "autoscaling_limit_max_cu": 2},
        {"id": "ep-bold-wind-a5r4t5y6", "branch_id": "br-withered-paper-a5o7qhfg", "type": "read_only", "name": "Reports",
         "autoscaling_limit_min_cu": 0.5, "autoscaling_limit_max_cu": 4, "suspend_timeout_seconds": -1},
        {"id": "ep-quiet-dawn-a5d1s4b1", "branch_id": "br-withered-paper-a5o7qhfg", "type": "read_only", "name": "old", "disabled": true},
        {"id": "ep-round-morning-adtpn2oc", "branch_id": "br-late-moon-a5k2d9x1", "type": "read_write", "name": "primary"},
        {"id": "ep-misty-field-a5g7h8j9", "branch_id": "br-late-moon-a5k2d9x1", "type": "read_only"}
      ]
    },
    {
      "id": "hidden-river-50598307", "name": "Shop",
      "branches": [{"id": "br-small-term-a5p9q8r7", "name": "main", "default": true}],
      "endpoints": [{"id": "ep-little-smoke-a5x1y2z3", "branch_id": "br-small-term-a5p9q8r7", "type": "read_write", "name": "primary",
        "suspend_timeout_seconds": 5400}]
    }
  ]
}`

// serve starts an emulator with the world, and a client that reads one
// item a page, so that -all goes through every page.
func serve(t *testing.T, doc string) *api.Client {
	t.Helper()
	data := filepath.Join(t.TempDir(), "world.json")
	if err := os.WriteFile(data, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	emu, err := emulator.New(emulator.Options{DataFile: data, RatePerMinute: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu.Handler())
	t.Cleanup(func() { srv.Close(); emu.Close() })
	c, err := api.New(api.Options{BaseURL: srv.URL + "/api/v2", APIKey: emu.APIKey(), RatePerMinute: -1, PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// writeAll writes the generated files into a new directory and loads it as
// any configuration is loaded.
func writeAll(t *testing.T, res *Result) *config.Config {
	t.Helper()
	dir := t.TempDir()
	for _, f := range res.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := config.Load(dir, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("the generated configuration does not load: %s", diags.String())
	}
	return cfg
}

// TestGeneratedPlansToNothing generates every project of a world, loads the
// files, reads the world as plan does and plans: with the state generate
// records, the plan changes nothing but the name of the endpoint that has
// none, and has no state-only step; with no state at all (the computes are
// adopted), it still calls nothing that changes a compute.
func TestGeneratedPlansToNothing(t *testing.T) {
	ctx := context.Background()
	c := serve(t, world)
	projects, err := Read(ctx, c, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) != 2 {
		t.Fatalf("read %d projects, want 2 (every page)", len(projects))
	}
	res, err := Make(projects, Options{Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeAll(t, res)

	labels := map[string]string{}
	for _, p := range cfg.Projects {
		labels[p.ID] = p.Label
	}
	if labels["dark-sun-46453911"] != "shop" || labels["hidden-river-50598307"] != "shop-2" {
		t.Errorf("project labels = %v, want shop and shop-2 (one name, made unique, by id)", labels)
	}
	var addrs []string
	for _, cp := range cfg.Computes() {
		addrs = append(addrs, cp.Address)
	}
	want := "shop-2.main.primary shop.main.writer shop.main.reports shop.main.reports-2 shop.feature-x.primary shop.feature-x.replica"
	if got := strings.Join(addrs, " "); got != want {
		t.Errorf("addresses = %q, want %q", got, want)
	}
	// A name that is a label keeps it; the one that has to be made into a
	// label gives way, and keeps its name.
	if c := cfg.Compute("shop.main.reports"); c == nil || c.Name != "reports" || c.MinCU != 2 || c.MaxCU != 2 {
		t.Errorf("shop.main.reports = %+v, want the fixed 2 CU replica named reports", c)
	}
	if c := cfg.Compute("shop.main.reports-2"); c == nil || c.Name != "Reports" || c.MinCU != 0.5 || c.MaxCU != 4 {
		t.Errorf("shop.main.reports-2 = %+v, want the 0.5-4 CU replica named Reports", c)
	}
	if len(res.LeftOut) != 1 || res.LeftOut[0].Address != "ep-quiet-dawn-a5d1s4b1" || !strings.Contains(res.LeftOut[0].Detail, "disabled") || res.LeftOut.HasErrors() {
		t.Errorf("left out = %+v, want the disabled compute", res.LeftOut)
	}
	if c := cfg.Compute("shop.feature-x.replica"); c == nil || c.Wrote("name") {
		t.Errorf("shop.feature-x.replica = %+v, want a block that writes no name: its endpoint has none, and keeps none", c)
	}

	st := state.New()
	for _, gc := range res.Computes {
		st.Computes[gc.Address] = gc.Record()
	}
	plan := planOf(t, c, cfg, st)
	for _, ch := range plan.Changes {
		if ch.Action == diff.NoOp {
			continue
		}
		if ch.Address == "shop.feature-x.replica" && ch.Action == diff.Update && len(ch.Attributes) == 1 && ch.Attributes[0].Name == "name" {
			continue
		}
		t.Errorf("with the recorded state: %s %s %v, want no change", ch.Action, ch.Address, ch.Attributes)
	}
	for _, s := range plan.Steps {
		if s.Kind == diff.StepState {
			t.Errorf("with the recorded state: a state-only step for %s (%s)", s.Address, s.Note)
		}
	}
	if len(plan.Unmanaged) != 1 || plan.Unmanaged[0].EndpointID != "ep-quiet-dawn-a5d1s4b1" {
		t.Errorf("unmanaged = %+v, want the disabled compute alone", plan.Unmanaged)
	}

	plan = planOf(t, c, cfg, state.New())
	for _, ch := range plan.Changes {
		if ch.Action != diff.NoOp && ch.Address != "shop.feature-x.replica" {
			t.Errorf("with no state: %s %s %v, want each endpoint adopted as it is", ch.Action, ch.Address, ch.Attributes)
		}
	}
}

func planOf(t *testing.T, c *api.Client, cfg *config.Config, st *state.State) *diff.Plan {
	t.Helper()
	live, diags := fetch.Live(context.Background(), c, cfg, st, fetch.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	plan, diags := diff.Build(cfg, st, live, diff.Options{ToolVersion: "test", APIURL: "http://127.0.0.1/api/v2", Now: time.Now(),
		ConfigDigest: diff.ConfigDigest(map[string][]byte{})})
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	return plan
}

// The first file starts with the neonform block when the configuration has
// none (a directory holds at most one): with the default service, it says
// nothing; with another, its URL.
func TestTheFirstFileStartsWithTheSettings(t *testing.T) {
	projects, err := Read(context.Background(), serve(t, world), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	for url, want := range map[string]string{
		config.DefaultAPIURL:      "neonform {}\n\nproject ",
		"https://neon.example/v2": "neonform {\n  api_url = \"https://neon.example/v2\"\n}\n\nproject ",
	} {
		res, err := Make(projects, Options{Dir: ".", Settings: &Settings{APIURL: url}})
		if err != nil {
			t.Fatal(err)
		}
		if src := string(res.Files[0].Src); !strings.HasPrefix(src, want) {
			t.Errorf("with %s, the first file starts\n%.60s\nwant\n%s", url, src, want)
		}
		if src := string(res.Files[1].Src); strings.Contains(src, "neonform") {
			t.Errorf("the second file has a neonform block too:\n%s", src)
		}
		writeAll(t, res)
	}
	res, err := Make(projects, Options{Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	if src := string(res.Files[0].Src); strings.Contains(src, "neonform") {
		t.Errorf("a configuration that has settings got a second neonform block:\n%s", src)
	}
}
