package diff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// The state's endpoint id wins over adoption: a compute recorded in state
// keeps its endpoint even when another read_write stands on the branch
// (which cannot happen live, but the state's id must be looked up first).
func TestIdentityStateFirst(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("reports", difftest.ReadOnly, difftest.Named("r")))))
	live := liveOf(liveProject(difftest.Proj,
		difftest.Endpoint("ep-a-recorded", difftest.BrMain, difftest.RO, difftest.EpName("old-name")),
		difftest.Endpoint("ep-b-samename", difftest.BrMain, difftest.RO, difftest.EpName("r")),
	))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.reports": difftest.Endpoint("ep-a-recorded", difftest.BrMain, difftest.RO, difftest.EpName("old-name"))})
	p := mustBuild(t, cfg, st, live)
	ch := changeAt(t, p, "shop.main.reports")
	if ch.EndpointID != "ep-a-recorded" || ch.Adopt {
		t.Fatalf("matched %s (adopt %v), want the state's ep-a-recorded, not adopted", ch.EndpointID, ch.Adopt)
	}
	if ch.Action != Update || len(ch.Attributes) != 1 || ch.Attributes[0].Name != "name" {
		t.Errorf("want an update of the name only, got %s %v", ch.Action, ch.Attributes)
	}
	// The same-named replica nobody claims is left alone.
	if len(p.Unmanaged) != 1 || p.Unmanaged[0].EndpointID != "ep-b-samename" {
		t.Errorf("unmanaged = %+v, want ep-b-samename", p.Unmanaged)
	}
}

// A read_write compute not in state adopts the branch's read_write endpoint
// (every default branch has one) instead of creating a second.
func TestIdentityAdoptsTheBranchReadWrite(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchNamed("main", "main", difftest.Compute("primary", difftest.Named("")))))
	live := liveOf(withBranches(liveProject(difftest.Proj, difftest.Endpoint("ep-default", difftest.BrMain, difftest.RW)), "main", difftest.BrMain, "dev", difftest.BrDev))
	p := mustBuild(t, cfg, nil, live)
	ch := changeAt(t, p, "shop.main.primary")
	if !ch.Adopt || ch.EndpointID != "ep-default" || ch.Action != NoOp {
		t.Fatalf("change = %+v, want a no-op adoption of ep-default", ch)
	}
	// Nothing to call; the adoption is recorded in state by a state-only step.
	if got, want := stepLines(p), []string{"STATE shop.main.primary"}; !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	s := p.Steps[0]
	if s.Record == nil || s.Record.EndpointID != "ep-default" || s.Record.BranchID != difftest.BrMain || s.Record.Type != difftest.RW {
		t.Errorf("record = %+v, want ep-default on %s, read_write", s.Record, difftest.BrMain)
	}
	if !strings.Contains(s.Note, "adopt ep-default") {
		t.Errorf("note = %q, want it to say the endpoint is adopted", s.Note)
	}
	// An adoption of an endpoint as it is needs no review (review.go).
	if p.APICalls() != 0 || p.HasChanges() || !p.HasSteps() || p.AdoptedAsIs() != 1 {
		t.Errorf("APICalls = %d, HasChanges = %v, HasSteps = %v, AdoptedAsIs = %d; want 0, false (nothing to review), true and 1",
			p.APICalls(), p.HasChanges(), p.HasSteps(), p.AdoptedAsIs())
	}
}

// An endpoint without a name keeps none under a block that writes no name,
// and is named by one that writes it; an endpoint named otherwise is renamed
// after the label either way.
func TestAdoptedEndpointKeepsNoNameUnlessNameIsWritten(t *testing.T) {
	for _, tt := range []struct {
		live string
		c    *config.Compute
		want string // the name change, "" for none
	}{
		{"", difftest.Compute("primary"), ""},
		{"", difftest.Compute("primary", difftest.Named("primary")), "primary"},
		{"", difftest.Compute("primary", difftest.Named("writer")), "writer"},
		{"old", difftest.Compute("primary"), "primary"},
		{"primary", difftest.Compute("primary"), ""},
	} {
		cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchNamed("main", "main", tt.c)))
		live := liveOf(withBranches(liveProject(difftest.Proj, difftest.Endpoint("ep-default", difftest.BrMain, difftest.RW, difftest.EpName(tt.live))), "main", difftest.BrMain))
		ch := changeAt(t, mustBuild(t, cfg, nil, live), "shop.main.primary")
		got := ""
		for _, a := range ch.Attributes {
			if a.Name == "name" {
				_, got = a.Values()
			}
		}
		if got != tt.want {
			t.Errorf("live name %q, block name %q (written %v): name changes to %q, want %q", tt.live, tt.c.Name, tt.c.Wrote("name"), got, tt.want)
		}
	}
}

// A read replica adopts a live read_only endpoint of the same name on its
// branch, and only that: another name, another branch or a read_write is not it.
func TestIdentityAdoptsReplicaByName(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj,
		difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"), difftest.Compute("reports", difftest.ReadOnly), difftest.Compute("audit", difftest.ReadOnly))))
	live := liveOf(liveProject(difftest.Proj,
		difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports")),
		difftest.Endpoint("ep-audit-dev", difftest.BrDev, difftest.RO, difftest.EpName("audit")),   // other branch
		difftest.Endpoint("ep-audit-old", difftest.BrMain, difftest.RO, difftest.EpName("audit2")), // other name
	))
	p := mustBuild(t, cfg, nil, live)
	if ch := changeAt(t, p, "shop.main.reports"); !ch.Adopt || ch.EndpointID != "ep-reports" {
		t.Errorf("reports: adopt %v of %q, want adoption of ep-reports", ch.Adopt, ch.EndpointID)
	}
	if ch := changeAt(t, p, "shop.main.audit"); ch.Action != Create || ch.Adopt {
		t.Errorf("audit: %s (adopt %v), want a create: no replica named audit on main", ch.Action, ch.Adopt)
	}
	var unmanaged []string
	for _, u := range p.Unmanaged {
		unmanaged = append(unmanaged, u.EndpointID)
	}
	if want := []string{"ep-audit-dev", "ep-audit-old"}; !cmp.Equal(unmanaged, want) {
		t.Errorf("unmanaged = %v, want %v", unmanaged, want)
	}
}

// Two replicas with the name: the first by id is adopted, and a warning says
// how to choose the other.
func TestIdentityAmbiguousReplicaWarns(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("reports", difftest.ReadOnly))))
	live := liveOf(liveProject(difftest.Proj,
		difftest.Endpoint("ep-z", difftest.BrMain, difftest.RO, difftest.EpName("reports")),
		difftest.Endpoint("ep-a", difftest.BrMain, difftest.RO, difftest.EpName("reports")),
	))
	p := mustBuild(t, cfg, nil, live)
	if ch := changeAt(t, p, "shop.main.reports"); ch.EndpointID != "ep-a" {
		t.Errorf("adopted %s, want ep-a (the first by id)", ch.EndpointID)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "neonform import shop.main.reports ENDPOINT_ID") {
		t.Errorf("warnings = %q, want one saying how to import the one meant", p.Warnings)
	}
}

// An endpoint that state assigns to one address is never adopted by another,
// even when that address is being removed: the new primary is created (after
// the old one is deleted), not given the old one's endpoint.
func TestIdentityNeverAdoptsAnEndpointStateAssigns(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("db"))))
	live := liveOf(liveProject(difftest.Proj, difftest.Endpoint("ep-old", difftest.BrMain, difftest.RW, difftest.EpName("primary"))))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": difftest.Endpoint("ep-old", difftest.BrMain, difftest.RW, difftest.EpName("primary"))})
	p := mustBuild(t, cfg, st, live)
	if ch := changeAt(t, p, "shop.main.db"); ch.Action != Create || ch.Adopt {
		t.Fatalf("shop.main.db: %s (adopt %v), want a create", ch.Action, ch.Adopt)
	}
	if ch := changeAt(t, p, "shop.main.primary"); ch.Action != Delete || ch.EndpointID != "ep-old" {
		t.Fatalf("shop.main.primary: %s of %s, want the delete of ep-old", ch.Action, ch.EndpointID)
	}
}

// A state entry whose endpoint is gone is drift; a compute still configured
// gets a new endpoint (a create that replaces the entry), one no longer
// configured is forgotten by a state-only step.
func TestIdentityEndpointGone(t *testing.T) {
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("reports", difftest.ReadOnly))))
	live := liveOf(liveProject(difftest.Proj))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{
		"shop.main.reports": difftest.Endpoint("ep-gone-1", difftest.BrMain, difftest.RO, difftest.EpName("reports")),
		"shop.main.scratch": difftest.Endpoint("ep-gone-2", difftest.BrMain, difftest.RO, difftest.EpName("scratch")),
	})
	p := mustBuild(t, cfg, st, live)
	if len(p.Drift) != 2 || !p.Drift[0].Gone || !p.Drift[1].Gone {
		t.Fatalf("drift = %+v, want both entries gone", p.Drift)
	}
	ch := changeAt(t, p, "shop.main.reports")
	if want := []Reason{{Kind: ReasonNewCompute, Type: api.EndpointTypeReadOnly, Branch: &Branch{ID: difftest.BrMain, Label: "shop.main"}},
		{Kind: ReasonEndpointDeletedOutside, EndpointID: "ep-gone-1"}}; ch.Action != Create || !cmp.Equal(ch.Reasons, want) {
		t.Errorf("reports: %s, reasons %+v; want a create that says the old endpoint was deleted outside neonform", ch.Action, ch.Reasons)
	}
	if got, want := stepLines(p), []string{"STATE shop.main.scratch", "POST shop.main.reports"}; !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	if s := p.Steps[0]; s.Forget != "shop.main.scratch" || s.EndpointID != "ep-gone-2" {
		t.Errorf("forget step = %+v, want it to forget shop.main.scratch (ep-gone-2)", s)
	}
	if _, ok := changeOf(p, "shop.main.scratch"); ok {
		t.Errorf("a gone endpoint that is no longer configured needs no change, only the state step")
	}
}

// A compute recorded in one project cannot be configured in another.
func TestIdentityProjectCannotChange(t *testing.T) {
	const other = "hidden-river-50598307"
	cfg := difftest.CfgOf(difftest.Project("shop", other, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"))))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": difftest.Endpoint("ep-p", difftest.BrMain, difftest.RW)})
	st.Computes["shop.main.primary"].ProjectID = difftest.Proj
	live := liveOf(liveProject(other, difftest.Endpoint("ep-q", difftest.BrMain, difftest.RW)), liveProject(difftest.Proj, difftest.Endpoint("ep-p", difftest.BrMain, difftest.RW)))
	cfg.Projects = append(cfg.Projects, difftest.Project("old", difftest.Proj))
	d := buildErr(t, cfg, st, live)
	if d.Summary != "Compute cannot change project" || !strings.Contains(d.Detail, "neonform state rm shop.main.primary") {
		t.Errorf("diagnostic = %s: %s", d.Summary, d.Detail)
	}
}

func changeOf(p *Plan, addr string) (*Change, bool) {
	for i := range p.Changes {
		if p.Changes[i].Address == addr {
			return &p.Changes[i], true
		}
	}
	return nil, false
}
