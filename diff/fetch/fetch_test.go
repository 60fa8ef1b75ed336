package fetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// fakeReader answers like the service, counting calls and the most calls in
// flight at once.
type fakeReader struct {
	endpoints map[string][]api.Endpoint
	branches  map[string][]api.Branch
	errs      map[string]error // by project id
	delay     time.Duration

	mu                sync.Mutex
	calls             map[string]int // "endpoints proj" / "branches proj"
	inFlight, maxSeen atomic.Int32
}

func (f *fakeReader) enter(what, projectID string) error {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[what+" "+projectID]++
	f.mu.Unlock()
	n := f.inFlight.Add(1)
	for {
		seen := f.maxSeen.Load()
		if n <= seen || f.maxSeen.CompareAndSwap(seen, n) {
			break
		}
	}
	time.Sleep(f.delay)
	f.inFlight.Add(-1)
	return f.errs[projectID]
}

// ListEndpointSummaries answers what the service would: the endpoints, as
// JSON, read as summaries.
func (f *fakeReader) ListEndpointSummaries(ctx context.Context, projectID string) ([]api.EndpointSummary, error) {
	if err := f.enter("endpoints", projectID); err != nil {
		return nil, err
	}
	eps := f.endpoints[projectID]
	if eps == nil {
		return nil, nil
	}
	data, err := json.Marshal(eps)
	if err != nil {
		return nil, err
	}
	var out []api.EndpointSummary
	err = json.Unmarshal(data, &out)
	return out, err
}

func (f *fakeReader) ListBranches(ctx context.Context, projectID string) ([]api.Branch, error) {
	if err := f.enter("branches", projectID); err != nil {
		return nil, err
	}
	return f.branches[projectID], nil
}

func (f *fakeReader) ProjectDefaults(ctx context.Context, projectID string) (*api.DefaultEndpointSettings, error) {
	if err := f.enter("defaults", projectID); err != nil {
		return nil, err
	}
	return &api.DefaultEndpointSettings{}, nil
}

// One list-endpoints call per project, and one list-branches call only for a
// project with a branch found by name.
func TestFetchMakesTheFewestCalls(t *testing.T) {
	cfg := difftest.CfgOf(
		difftest.Project("pinned", "p-pinned", difftest.BranchID("main", "br-1", difftest.Compute("primary")), difftest.BranchID("dev", "br-2")),
		difftest.Project("named", "p-named", difftest.BranchID("main", "br-3", difftest.Compute("primary")), difftest.BranchNamed("dev", "dev")),
		difftest.Project("empty", "p-empty"),
	)
	f := &fakeReader{
		endpoints: map[string][]api.Endpoint{"p-pinned": {difftest.Endpoint("ep-1", "br-1", difftest.RW)}},
		branches:  map[string][]api.Branch{"p-named": {{ID: "br-4", Name: "dev"}}},
	}
	live, diags := Live(context.Background(), f, cfg, nil, Options{Parallelism: 4})
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	want := map[string]int{"endpoints p-pinned": 1, "endpoints p-named": 1, "branches p-named": 1, "endpoints p-empty": 1}
	if fmt.Sprint(f.calls) != fmt.Sprint(want) {
		t.Errorf("calls = %v, want %v", f.calls, want)
	}
	if lp := live.Projects["p-pinned"]; lp == nil || len(lp.Endpoints) != 1 || lp.Branches != nil {
		t.Errorf("p-pinned = %+v, want its endpoint, its digest, and branches not fetched (nil)", lp)
	}
	if lp := live.Projects["p-named"]; lp == nil || lp.Branches == nil || len(lp.Branches) != 1 {
		t.Errorf("p-named = %+v, want its branches", lp)
	}
	// A project whose branch list is empty: fetched and empty, not "not fetched".
	f.branches = nil
	live, _ = Live(context.Background(), f, difftest.CfgOf(difftest.Project("named", "p-named", difftest.BranchNamed("dev", "dev"))), nil, Options{Parallelism: 1})
	if lp := live.Projects["p-named"]; lp.Branches == nil {
		t.Errorf("an empty branch list reads as not fetched")
	}
}

// Projects are read in parallel, never more than parallelism at once.
func TestFetchIsBoundedByParallelism(t *testing.T) {
	var projects []*config.Project
	for i := range 24 {
		projects = append(projects, difftest.Project(fmt.Sprintf("p%d", i), fmt.Sprintf("proj-%02d", i), difftest.BranchID("main", "br-x")))
	}
	for _, n := range []int{1, 3, 8} {
		f := &fakeReader{delay: 5 * time.Millisecond}
		if _, diags := Live(context.Background(), f, difftest.CfgOf(projects...), nil, Options{Parallelism: n}); diags.HasErrors() {
			t.Fatal(diags.String())
		}
		if got := int(f.maxSeen.Load()); got > n || (n > 1 && got < 2) {
			t.Errorf("parallelism %d: %d calls in flight at most", n, got)
		}
	}
}

// A project that does not exist, or that the key cannot see, is an error
// naming the project's label and id and pointing at its block.
func TestFetchProjectNotFound(t *testing.T) {
	missing := difftest.Project("warehouse", "cold-lake-12345678", difftest.BranchID("main", "br-x"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain)), missing)
	for _, tt := range []struct {
		status  int
		summary string
		words   []string
	}{
		{http.StatusNotFound, "Project not found", []string{`Project "warehouse" (id "cold-lake-12345678") does not exist, or the API key cannot see it.`,
			"The service answered GET /projects/cold-lake-12345678/endpoints: 404 Not Found: boom."}},
		{http.StatusForbidden, "Project not found", []string{"403 Forbidden: boom", "project-scoped key"}},
		{http.StatusInternalServerError, "Cannot read project warehouse", []string{`Listing the endpoints of project "warehouse" (id "cold-lake-12345678") failed`, "Nothing was changed"}},
	} {
		f := &fakeReader{errs: map[string]error{"cold-lake-12345678": &api.Error{StatusCode: tt.status, Message: "boom", Method: "GET", Path: "/projects/cold-lake-12345678/endpoints"}}}
		live, diags := Live(context.Background(), f, cfg, nil, Options{Parallelism: 2})
		if len(diags) != 1 {
			t.Fatalf("HTTP %d: diagnostics = %v, want one", tt.status, diags)
		}
		d := diags[0]
		if d.Summary != tt.summary || d.Range == nil || *d.Range != missing.DeclRange {
			t.Errorf("HTTP %d: %q at %v; want %q at the project block %v", tt.status, d.Summary, d.Range, tt.summary, missing.DeclRange)
		}
		for _, w := range tt.words {
			if !strings.Contains(d.Detail, w) {
				t.Errorf("HTTP %d: detail %q, want %q in it", tt.status, d.Detail, w)
			}
		}
		if live.Projects[difftest.Proj] == nil {
			t.Errorf("HTTP %d: the readable project was not kept", tt.status)
		}
	}
	f := &fakeReader{errs: map[string]error{difftest.Proj: errors.New("connection refused")}}
	_, diags := Live(context.Background(), f, difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchNamed("main", "main"))), nil, Options{Parallelism: 1})
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "connection refused") {
		t.Errorf("a network error: %v", diags)
	}
}

// Branches found by name resolve through the fetched list; a missing or
// ambiguous name is an error at the branch block.
func TestBranchResolution(t *testing.T) {
	b := difftest.BranchNamed("feature", "feature/x", difftest.Compute("primary"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, b))
	live := plantest.LiveOf(plantest.WithBranches(plantest.LiveProject(difftest.Proj, difftest.Endpoint("ep-f", "br-f", difftest.RW)), "feature/x", "br-f"))
	p := plantest.MustBuild(t, cfg, nil, live)
	if ch := plantest.ChangeAt(t, p, "shop.feature.primary"); ch.EndpointID != "ep-f" || ch.BranchID != "br-f" {
		t.Errorf("change = %+v, want ep-f on br-f", ch)
	}
	for _, tt := range []struct {
		branches []string
		summary  string
		detail   string
	}{
		{[]string{"main", "br-m"}, "Branch not found", `has no branch named "feature/x"`},
		{[]string{"feature/x", "br-1", "feature/x", "br-2"}, "Branch name is ambiguous", "br-1, br-2"},
	} {
		live := plantest.LiveOf(plantest.WithBranches(plantest.LiveProject(difftest.Proj), tt.branches...))
		d := plantest.BuildErr(t, cfg, nil, live)
		if d.Summary != tt.summary || !strings.Contains(d.Detail, tt.detail) || d.Range == nil || *d.Range != b.DeclRange {
			t.Errorf("%s: %s at %v", d.Summary, d.Detail, d.Range)
		}
	}
}
