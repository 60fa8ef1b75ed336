package generate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/sizing"
)

// fakeService is a service whose answers the test writes: the emulator, like
// the service today, refuses two branches of one name, which an account may
// still hold from before.
type fakeService struct{ projects []*Project }

func (f *fakeService) ListProjects(context.Context) ([]api.ProjectListItem, error) {
	var out []api.ProjectListItem
	for _, p := range f.projects {
		out = append(out, api.ProjectListItem{ID: p.ID, Name: p.Name})
	}
	return out, nil
}

func (f *fakeService) GetProject(_ context.Context, id string) (*api.Project, error) {
	for _, p := range f.projects {
		if p.ID == id {
			return &api.Project{ID: p.ID, Name: p.Name}, nil
		}
	}
	return nil, &api.Error{StatusCode: 404}
}

func (f *fakeService) find(id string) *Project {
	for _, p := range f.projects {
		if p.ID == id {
			return p
		}
	}
	return &Project{}
}

func (f *fakeService) ListBranches(_ context.Context, id string) ([]api.Branch, error) {
	return f.find(id).Branches, nil
}

func (f *fakeService) ListEndpoints(_ context.Context, id string) ([]api.Endpoint, error) {
	return f.find(id).Endpoints, nil
}

func twoMains() *fakeService {
	return &fakeService{projects: []*Project{{
		ID: "dark-sun-46453911", Name: "shop",
		Branches: []api.Branch{
			{ID: "br-a", Name: "main", Default: true},
			{ID: "br-b", Name: "main"},
			{ID: "br-c", Name: "dev"},
		},
		Endpoints: []api.Endpoint{
			{ID: "ep-a", BranchID: "br-a", Type: api.EndpointTypeReadWrite, Name: "primary", AutoscalingLimitMinCU: 1, AutoscalingLimitMaxCU: 1},
			{ID: "ep-b", BranchID: "br-b", Type: api.EndpointTypeReadWrite, Name: "primary", AutoscalingLimitMinCU: 0.25, AutoscalingLimitMaxCU: 1},
			{ID: "ep-c", BranchID: "br-c", Type: api.EndpointTypeReadOnly, Name: "r", AutoscalingLimitMinCU: 1, AutoscalingLimitMaxCU: 1},
			{ID: "ep-gone", BranchID: "br-deleted", Type: api.EndpointTypeReadWrite, AutoscalingLimitMinCU: 1, AutoscalingLimitMaxCU: 1},
		},
	}}}
}

// Two branches of one name are each pinned by id (a name would be
// ambiguous), under labels made unique; the branch found by name stays so.
// The configuration plans to nothing against the same world.
func TestBranchesOfOneNameArePinnedByID(t *testing.T) {
	f := twoMains()
	projects, err := Read(context.Background(), f, []string{"dark-sun-46453911"}, false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Make(projects, Options{Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.LoadSources(".", map[string][]byte{res.Files[0].Name: res.Files[0].Src}, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags.String(), res.Files[0].Src)
	}
	got := map[string]string{}
	for _, b := range cfg.Projects[0].Branches {
		got[b.Label] = "id=" + b.ID + " name=" + b.Name
		if b.ID != "" {
			got[b.Label] = "id=" + b.ID
		}
	}
	want := map[string]string{"main": "id=br-a", "main-2": "id=br-b", "dev": "id= name=dev"}
	for label, w := range want {
		if got[label] != w {
			t.Errorf("branch %s: %s, want %s (all: %v)", label, got[label], w, got)
		}
	}
	if len(res.LeftOut) != 1 || res.LeftOut[0].Address != "ep-gone" || !strings.Contains(res.LeftOut[0].Detail, "br-deleted") {
		t.Errorf("left out = %+v, want ep-gone, whose branch is not listed", res.LeftOut)
	}
	for _, c := range res.Computes {
		if rec := c.Record(); (rec.BranchName != "") != (c.Address == "shop.dev.r") {
			t.Errorf("%s records branch name %q: only a branch found by name records one", c.Address, rec.BranchName)
		}
	}
	if err := Check(cfg, projects, res, checkOptions()); err != nil {
		t.Fatal(err)
	}
}

// Check refuses a configuration that would not plan to nothing: here one
// whose primary lost its autoscaling range.
func TestCheckRefusesAConfigurationThatChangesSomething(t *testing.T) {
	f := twoMains()
	projects, _ := Read(context.Background(), f, []string{"dark-sun-46453911"}, false)
	res, err := Make(projects, Options{Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(res.Files[0].Src), "min_cu = 0.25", "min_cu = 1", 1)
	src = strings.Replace(src, "max_cu = 1\n", "max_cu = 2\n", 1)
	cfg, diags := config.LoadSources(".", map[string][]byte{"shop.hcl": []byte(src)}, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags.String(), src)
	}
	err = Check(cfg, projects, res, checkOptions())
	if err == nil || !strings.Contains(err.Error(), "update shop.main-2.primary") {
		t.Fatalf("Check = %v, want it to name the update of shop.main-2.primary", err)
	}
}

func checkOptions() diff.Options {
	return diff.Options{ToolVersion: "test", APIURL: "http://127.0.0.1/api/v2", Now: time.Now(), ConfigDigest: diff.ConfigDigest(map[string][]byte{})}
}

// An endpoint whose block the configuration would refuse is left out, with
// the configuration's reason, and the rest is generated: here a size above
// the free tier's cap, and a suspend timeout below the configuration's
// range; a branch left with no compute gets no block.
func TestRefusedBlocksAreLeftOut(t *testing.T) {
	f := twoMains()
	p := f.projects[0]
	p.Branches = append(p.Branches, api.Branch{ID: "br-big", Name: "big"})
	p.Endpoints = append(p.Endpoints,
		api.Endpoint{ID: "ep-big", BranchID: "br-big", Type: api.EndpointTypeReadWrite, Name: "big", AutoscalingLimitMinCU: 4, AutoscalingLimitMaxCU: 4},
		api.Endpoint{ID: "ep-quick", BranchID: "br-c", Type: api.EndpointTypeReadOnly, Name: "quick", AutoscalingLimitMinCU: 1, AutoscalingLimitMaxCU: 1, SuspendTimeoutSeconds: 30})
	projects, err := Read(context.Background(), f, []string{p.ID}, false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Make(projects, Options{Dir: ".", Tier: sizing.Free})
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, l := range res.LeftOut {
		why[l.Address] = l.Summary + ": " + l.Detail
	}
	if !strings.Contains(why["ep-big"], "Free plan") {
		t.Errorf("ep-big left out because %q, want the free tier's cap", why["ep-big"])
	}
	if !strings.Contains(why["ep-quick"], "Suspend timeout") {
		t.Errorf("ep-quick left out because %q, want the suspend timeout's range", why["ep-quick"])
	}
	src := string(res.Files[0].Src)
	if strings.Contains(src, `"big"`) || strings.Contains(src, `"quick"`) || res.Files[0].Branches != 3 || res.Files[0].Computes != 3 {
		t.Errorf("the refused blocks, or the branch left empty, are in the file (%d branches, %d computes):\n%s", res.Files[0].Branches, res.Files[0].Computes, src)
	}
	cfg, diags := config.LoadSources(".", map[string][]byte{"shop.hcl": res.Files[0].Src, "settings.hcl": []byte("neonform {\n  account_tier = \"free\"\n}\n")}, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	if err := Check(cfg, projects, res, checkOptions()); err != nil {
		t.Fatal(err)
	}
}
