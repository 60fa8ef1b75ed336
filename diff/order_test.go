package diff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// A replacement creates the new compute first and deletes the old one after,
// so the gap is as short as it can be.
func TestReplacementCreatesFirst(t *testing.T) {
	live := difftest.Endpoint("ep-old", difftest.BrMain, difftest.RW, difftest.EpName("c")) // read_write, now configured read_only
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("c", difftest.ReadOnly))))
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live}), liveOf(liveProject(difftest.Proj, live)))
	if got, want := stepLines(p), []string{"POST shop.main.c", "DELETE shop.main.c after 1"}; !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	ch := changeAt(t, p, "shop.main.c")
	if ch.Action != Replace || ch.Disruption != Recreate || ch.Downtime || ch.EndpointID != "ep-old" {
		t.Errorf("change = %+v, want a replace of ep-old without downtime", ch)
	}
	del := p.Steps[1]
	if del.Forget != "shop.main.c" || del.EndpointID != "ep-old" || del.Record != nil {
		t.Errorf("delete = %+v, want it to forget shop.main.c only while it still points at ep-old", del)
	}
	if create := p.Steps[0]; create.Record == nil || create.Record.EndpointID != "" || create.Record.Type != difftest.RO {
		t.Errorf("create record = %+v, want a read_only record whose id comes from the response", create.Record)
	}
}

// A new read_write compute on a branch whose read_write is removed: the old
// one is deleted first (a branch holds one), and the plan says there is
// downtime, and how a moved block would avoid it.
func TestNewPrimaryReplacingTheOldDeletesFirst(t *testing.T) {
	old := difftest.Endpoint("ep-old", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("db"))))
	p := mustBuild(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": old}), liveOf(liveProject(difftest.Proj, old)))
	if got, want := stepLines(p), []string{"DELETE shop.main.primary", "POST shop.main.db after 1"}; !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	ch := changeAt(t, p, "shop.main.db")
	if !ch.Downtime {
		t.Errorf("the create does not say there is downtime")
	}
	// ep-old, held by shop.main.primary, is deleted first; the create may be
	// shop.main.primary renamed, which a moved block would keep.
	for _, want := range []Reason{
		{Kind: ReasonDowntime, Branch: &Branch{ID: difftest.BrMain, Label: "shop.main"}, EndpointID: "ep-old", Address: "shop.main.primary"},
		{Kind: ReasonMayBeRenamed, From: "shop.main.primary", EndpointID: "ep-old"},
	} {
		if !hasReason(ch, want) {
			t.Errorf("reasons = %+v\nwant %+v in them", ch.Reasons, want)
		}
	}
}

// A read_only compute becoming read_write on a branch whose read_write is
// removed: the replacement's create waits for that delete (downtime), and
// the old replica is deleted after the create.
func TestReplacementOntoABranchWhosePrimaryIsRemoved(t *testing.T) {
	oldRW := difftest.Endpoint("ep-rw", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	oldRO := difftest.Endpoint("ep-ro", difftest.BrMain, difftest.RO, difftest.EpName("c"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("c"))))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": oldRW, "shop.main.c": oldRO})
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, oldRW, oldRO)))
	if got, want := stepLines(p), []string{"DELETE shop.main.primary", "POST shop.main.c after 1", "DELETE shop.main.c after 2"}; !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	if ch := changeAt(t, p, "shop.main.c"); !ch.Downtime || ch.Action != Replace {
		t.Errorf("change = %+v, want a replace with downtime", ch)
	}
}

// A primary moved (moved block) onto a branch whose primary is removed: the
// delete goes first, then the PATCH branch_id.
func TestPrimaryMovedOntoABranchWhosePrimaryIsRemoved(t *testing.T) {
	devPrimary := difftest.Endpoint("ep-dev", difftest.BrDev, difftest.RW, difftest.EpName("primary"))
	mainPrimary := difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj,
		difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary")),
		difftest.BranchID("dev", difftest.BrDev))),
		"shop.dev.primary", "shop.main.primary")
	// State: shop.dev.primary = ep-dev moves to main; main's current primary
	// is recorded at another address that the configuration no longer has.
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.dev.primary": devPrimary, "shop.main.old": mainPrimary})
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, devPrimary, mainPrimary)))
	if got, want := stepLines(p), []string{"DELETE shop.main.old", "PATCH shop.main.primary after 1"}; !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	ch := changeAt(t, p, "shop.main.primary")
	if !ch.Downtime || ch.Disruption != Suspend || ch.EndpointID != "ep-dev" {
		t.Errorf("change = %+v, want ep-dev moved with downtime on main", ch)
	}
	if want := (Reason{Kind: ReasonDowntime, Branch: &Branch{ID: difftest.BrMain, Label: "shop.main"}, EndpointID: "ep-main",
		Address: "shop.main.old", MovedIn: true}); !hasReason(ch, want) {
		t.Errorf("reasons = %+v, want %+v", ch.Reasons, want)
	}
}

// Two primaries swapping branches cannot be ordered: each needs the other
// to leave first. The error says why and what to do instead.
func TestTwoPrimariesSwappingIsAnError(t *testing.T) {
	a := difftest.Endpoint("ep-a", difftest.BrMain, difftest.RW, difftest.EpName("a"))
	b := difftest.Endpoint("ep-b", difftest.BrDev, difftest.RW, difftest.EpName("b"))
	cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj,
		difftest.BranchID("main", difftest.BrMain, difftest.Compute("b")),
		difftest.BranchID("dev", difftest.BrDev, difftest.Compute("a")))),
		"shop.main.a", "shop.dev.a", "shop.dev.b", "shop.main.b")
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.a": a, "shop.dev.b": b})
	d := buildErr(t, cfg, st, liveOf(liveProject(difftest.Proj, a, b)))
	if d.Summary != "Read-write computes cannot swap branches" {
		t.Errorf("summary = %q", d.Summary)
	}
	for _, want := range []string{
		"shop.dev.a moves onto branch shop.dev (" + difftest.BrDev + "), which must first be left by ep-b (shop.main.b)",
		"shop.main.b moves onto branch shop.main (" + difftest.BrMain + "), which must first be left by ep-a (shop.dev.a)",
		"Do it in two applies",
	} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("detail = %q\nwant %q in it", d.Detail, want)
		}
	}
	if d.Range == nil || *d.Range != cfg.Moves[0].DeclRange {
		t.Errorf("subject = %v, want the moved block of shop.dev.a at %v", d.Range, cfg.Moves[0].DeclRange)
	}
}

// A read_write create onto a branch whose read_write stays is an error that
// says how to resolve it (here: a moved read_write whose target branch keeps
// an unmanaged primary).
func TestReadWriteOntoAnOccupiedBranchIsAnError(t *testing.T) {
	moving := difftest.Endpoint("ep-a", difftest.BrDev, difftest.RW, difftest.EpName("a"))
	stays := difftest.Endpoint("ep-unmanaged", difftest.BrMain, difftest.RW)
	cfg := difftest.WithMoves(difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("a")), difftest.BranchID("dev", difftest.BrDev))),
		"shop.dev.a", "shop.main.a")
	d := buildErr(t, cfg, stateWith(difftest.Proj, map[string]api.Endpoint{"shop.dev.a": moving}), liveOf(liveProject(difftest.Proj, moving, stays)))
	if d.Summary != "Branch already has a read_write compute" || !strings.Contains(d.Detail, "ep-unmanaged (not managed by neonform) already is its read_write compute") ||
		!strings.Contains(d.Detail, "exclusive = true") {
		t.Errorf("diagnostic = %s: %s", d.Summary, d.Detail)
	}
}

// Projects are numbered one after another, state-only steps first in each,
// then by address; steps only wait for steps of their own project.
func TestStepsAreNumberedPerProjectInOrder(t *testing.T) {
	const proj2 = "hidden-river-50598307"
	liveA := difftest.Endpoint("ep-a", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.CfgOf(
		difftest.Project("web", proj2, difftest.BranchID("main", "br-web-main", difftest.Compute("primary"), difftest.Compute("zeta", difftest.ReadOnly))),
		difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary", difftest.CU(1, 2)), difftest.Compute("alpha", difftest.ReadOnly))),
	)
	live := liveOf(liveProject(difftest.Proj, liveA), liveProject(proj2, difftest.Endpoint("ep-w", "br-web-main", difftest.RW, difftest.EpName("primary"))))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": liveA})
	p := mustBuild(t, cfg, st, live)
	want := []string{
		"POST shop.main.alpha", "PATCH shop.main.primary", // dark-sun-... sorts before hidden-river-...
		"STATE web.main.primary", "POST web.main.zeta",
	}
	if got := stepLines(p); !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	for i, s := range p.Steps {
		if s.ID != i+1 {
			t.Errorf("step %d has id %d", i, s.ID)
		}
	}
	if p.Projects[0].ID != difftest.Proj || p.Projects[1].ID != proj2 {
		t.Errorf("projects = %+v, want them in id order", p.Projects)
	}
}
