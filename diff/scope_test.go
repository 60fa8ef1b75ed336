package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/state"
)

func TestCovers(t *testing.T) {
	for _, tc := range []struct {
		target, address string
		want            bool
	}{
		{"shop", "shop.main.primary", true},
		{"shop", "shop", true},
		{"shop.main", "shop.main.primary", true},
		{"shop.main", "shop.dev.primary", false},
		{"shop.main.primary", "shop.main.primary", true},
		{"shop.main.primary", "shop.main", false}, // a compute does not cover its branch
		{"sho", "shop.main.primary", false},
		{"shop.main.primary", "shop.main.primary[deposed:ep-old-one-a1b2c3d4]", true},
		// A part without a key covers every instance; with one, that instance.
		{"shop.main.reports", `shop.main.reports["eu"]`, true},
		{`shop.main.reports["eu"]`, `shop.main.reports["eu"]`, true},
		{`shop.main.reports["eu"]`, `shop.main.reports["us"]`, false},
		{`shop.main.reports["eu"]`, "shop.main.reports", false},
		{"tenant", `tenant["acme"].main.primary`, true},
		{`tenant["acme"]`, `tenant["globex"].main.primary`, false},
		{"shop.previews", `shop.previews["preview/pr-12"].app`, true},
		{`shop.previews["preview/pr-12"]`, `shop.previews["preview/pr-12"].app`, true},
		{"shop..main", "shop.main.primary", false}, // does not parse
	} {
		if got := Covers(tc.target, tc.address); got != tc.want {
			t.Errorf("Covers(%s, %s) = %v, want %v", tc.target, tc.address, got, tc.want)
		}
	}
}

// buildScoped plans with a scope and checks that Verify accepts the plan.
func buildScoped(t *testing.T, cfg *config.Config, st *state.State, live *Live, s Scope) *Plan {
	t.Helper()
	opts := testOpts
	opts.Scope = s
	p, diags := Build(cfg, st, live, opts)
	if diags.HasErrors() {
		t.Fatalf("Build: %s", diags.String())
	}
	checkVerifies(t, p, st)
	return p
}

// A partial plan plans the targeted computes alone: the state's entry of a
// compute no longer configured, an entry whose endpoint is gone, another
// compute's drift and change, and an unclaimed endpoint on an exclusive
// branch all wait for a whole plan; the untargeted project need not be read.
func TestTargetLeavesTheRestAlone(t *testing.T) {
	const shop, books = "dark-sun-1", "quiet-river-2"
	primary := difftest.Endpoint("ep-primary", "br-main", difftest.RW, difftest.EpCU(1, 3)) // drifted: state says 1-1
	reports := difftest.Endpoint("ep-reports", "br-main", difftest.RO, difftest.EpName("reports"))
	old := difftest.Endpoint("ep-old", "br-main", difftest.RO, difftest.EpName("old"))
	stray := difftest.Endpoint("ep-stray", "br-main", difftest.RO, difftest.EpName("stray"))
	st := stateWith(shop, map[string]api.Endpoint{"shop.main.reports": reports, "shop.main.old": old, "shop.main.gone": difftest.Endpoint("ep-gone", "br-main", difftest.RO)})
	st.Computes["shop.main.primary"] = LiveValues(&primary).Record(primary.ID, shop, false)
	st.Computes["shop.main.primary"].Applied.MaxCU = 1
	st.Computes["books.main.primary"] = LiveValues(&primary).Record("ep-books", books, false)
	cfg := difftest.CfgOf(
		difftest.Project("shop", shop, difftest.Exclusive(difftest.BranchID("main", "br-main", difftest.Compute("primary", difftest.CU(1, 2)), difftest.Compute("reports", difftest.ReadOnly, difftest.CU(1, 2))))),
		difftest.Project("books", books, difftest.BranchID("main", "br-books", difftest.Compute("primary", difftest.CU(1, 2)))),
	)
	live := liveOf(liveProject(shop, primary, reports, old, stray)) // books is not read

	p := buildScoped(t, cfg, st, live, Scope{Targets: []string{"shop.main.reports"}})
	if got := addresses(p); !slices.Equal(got, []string{"shop.main.reports:update"}) {
		t.Errorf("changes = %v, want only shop.main.reports updated", got)
	}
	if got := stepLines(p); !slices.Equal(got, []string{"PATCH shop.main.reports"}) {
		t.Errorf("steps = %v, want the one PATCH (no forget of shop.main.gone, no delete of shop.main.old or ep-stray)", got)
	}
	if len(p.Drift) != 0 || len(p.Unmanaged) != 0 {
		t.Errorf("drift %v, unmanaged %v: a partial plan says nothing of what it does not target", p.Drift, p.Unmanaged)
	}
	if !slices.Equal(p.Targets, []string{"shop.main.reports"}) || len(p.Projects) != 1 {
		t.Errorf("targets %v, %d projects: want the target recorded and shop alone", p.Targets, len(p.Projects))
	}

	// Without its targets, the file would pass for a whole plan: refused.
	edited := *p
	edited.Targets = nil
	if _, err := Verify(&edited, st); err == nil || !strings.Contains(err.Error(), "the state manages shop.main.old (ep-old), but the plan, which has no targets, says nothing of it") {
		t.Errorf("Verify of the partial plan without its targets: %v, want a refusal", err)
	}

	// The same plan made whole: everything that waited is there.
	whole := buildScoped(t, cfg, st, liveOf(liveProject(shop, primary, reports, old, stray), liveProject(books, difftest.Endpoint("ep-books", "br-books", difftest.RW))), Scope{})
	for _, want := range []string{"shop.main.old:delete", "shop.main.primary:update", "shop.main[ep-stray]:delete", "books.main.primary:update"} {
		if !slices.Contains(addresses(whole), want) {
			t.Errorf("the whole plan lacks %s: %v", want, addresses(whole))
		}
	}
}

// A target without a key covers every instance of its block.
func TestTargetCoversInstances(t *testing.T) {
	const shop = "dark-sun-1"
	eu, us := difftest.Compute(`reports["eu"]`, difftest.ReadOnly, difftest.Named("reports-eu")), difftest.Compute(`reports["us"]`, difftest.ReadOnly, difftest.Named("reports-us"))
	cfg := difftest.CfgOf(difftest.Project("shop", shop, difftest.BranchID("main", "br-main", difftest.Compute("primary"), eu, us)))
	live := liveOf(liveProject(shop, difftest.Endpoint("ep-primary", "br-main", difftest.RW)))

	p := buildScoped(t, cfg, nil, live, Scope{Targets: []string{"shop.main.reports"}})
	if got := addresses(p); !slices.Equal(got, []string{`shop.main.reports["eu"]:create`, `shop.main.reports["us"]:create`}) {
		t.Errorf("changes = %v, want both instances created and the primary left out", got)
	}
	p = buildScoped(t, cfg, nil, live, Scope{Targets: []string{`shop.main.reports["us"]`}})
	if got := addresses(p); !slices.Equal(got, []string{`shop.main.reports["us"]:create`}) {
		t.Errorf("changes = %v, want the one instance", got)
	}
}

// -replace recreates a compute in which nothing changed, with its reason,
// create first; the plan records it, and Verify refuses the replacement
// without it.
func TestReplaceAsked(t *testing.T) {
	const shop = "dark-sun-1"
	primary, reports := difftest.Endpoint("ep-primary", "br-main", difftest.RW, difftest.EpName("primary")), difftest.Endpoint("ep-reports", "br-main", difftest.RO, difftest.EpName("reports"))
	st := stateWith(shop, map[string]api.Endpoint{"shop.main.primary": primary, "shop.main.reports": reports})
	cfg := difftest.CfgOf(difftest.Project("shop", shop, difftest.BranchID("main", "br-main", difftest.Compute("primary"), difftest.Compute("reports", difftest.ReadOnly))))
	live := liveOf(liveProject(shop, primary, reports))

	p := buildScoped(t, cfg, st, live, Scope{Replace: []string{"shop.main.reports"}})
	ch := changeAt(t, p, "shop.main.reports")
	if ch.Action != Replace || ch.Disruption != Recreate || len(ch.Attributes) != 0 || !hasReason(ch, Reason{Kind: ReasonReplaceAsked}) {
		t.Errorf("change = %v, %v, %d attributes, reasons %+v: want a replace asked with -replace", ch.Action, ch.Disruption, len(ch.Attributes), ch.Reasons)
	}
	if got := stepLines(p); !slices.Equal(got, []string{"POST shop.main.reports", "DELETE shop.main.reports after 1"}) {
		t.Errorf("steps = %v, want create first, then delete", got)
	}

	edited := *p
	edited.Replace = nil
	if _, err := Verify(&edited, st); err == nil || !strings.Contains(err.Error(), "asked with -replace") {
		t.Errorf("Verify of the replacement without -replace: %v, want a refusal", err)
	}
	edited.Replace = []string{"shop.main.primary"}
	if _, err := Verify(&edited, st); err == nil || !strings.Contains(err.Error(), "shop.main.primary was asked to be replaced") {
		t.Errorf("Verify of a -replace the plan ignores: %v, want a refusal", err)
	}

	// The branch's read_write compute: the old one goes first (downtime).
	p = buildScoped(t, cfg, st, live, Scope{Replace: []string{"shop.main.primary"}})
	if ch := changeAt(t, p, "shop.main.primary"); ch.Action != Replace || !ch.Downtime {
		t.Errorf("primary: %v, downtime %v; want a replace with downtime", ch.Action, ch.Downtime)
	}
	if got := stepLines(p); !slices.Equal(got, []string{"DELETE shop.main.primary", "POST shop.main.primary after 1"}) {
		t.Errorf("steps = %v, want delete first", got)
	}
}

// prevent_destroy and allow_restart = false refuse an asked replacement, and
// say -replace asked it.
func TestReplaceAskedLifecycle(t *testing.T) {
	const shop = "dark-sun-1"
	reports := difftest.Endpoint("ep-reports", "br-main", difftest.RO, difftest.EpName("reports"), difftest.Active)
	st := stateWith(shop, map[string]api.Endpoint{"shop.main.reports": reports})
	live := liveOf(liveProject(shop, reports))

	protected := difftest.Compute("reports", difftest.ReadOnly, difftest.PreventDestroy)
	cfg := difftest.CfgOf(difftest.Project("shop", shop, difftest.BranchID("main", "br-main", protected)))
	d := buildErrScoped(t, cfg, st, live, Scope{Replace: []string{"shop.main.reports"}})
	if d.Summary != "Compute cannot be recreated" || *d.Range != protected.Range("lifecycle.prevent_destroy") || !strings.Contains(d.Detail, "-replace asks to recreate it") {
		t.Errorf("got %q at %v: %s", d.Summary, d.Range, d.Detail)
	}

	careful := difftest.Compute("reports", difftest.ReadOnly, difftest.NoRestart)
	cfg = difftest.CfgOf(difftest.Project("shop", shop, difftest.BranchID("main", "br-main", careful)))
	d = buildErrScoped(t, cfg, st, live, Scope{Replace: []string{"shop.main.reports"}})
	if d.Summary != "Compute would be interrupted while active" || !strings.Contains(d.Detail, "but -replace asks to recreate it, which drops its connections") {
		t.Errorf("got %q: %s", d.Summary, d.Detail)
	}
}

func buildErrScoped(t *testing.T, cfg *config.Config, st *state.State, live *Live, s Scope) *diag.Diagnostic {
	t.Helper()
	opts := testOpts
	opts.Scope = s
	_, diags := Build(cfg, st, live, opts)
	if len(diags) != 1 || !diags.HasErrors() {
		t.Fatalf("want one error, got %v", diags)
	}
	return &diags[0]
}

// A destroy deletes every managed endpoint, deposed ones too, in configured
// projects and in a project no block names; it forgets an entry whose
// endpoint is gone and leaves unmanaged endpoints alone. Verify refuses a
// destroy plan that leaves a managed endpoint standing, or does anything else.
func TestDestroy(t *testing.T) {
	const shop, gone = "dark-sun-1", "old-project-2"
	primary := difftest.Endpoint("ep-primary", "br-main", difftest.RW, difftest.Active)
	deposed := difftest.Endpoint("ep-deposed", "br-main", difftest.RO, difftest.EpName("reports"))
	adhoc := difftest.Endpoint("ep-adhoc", "br-main", difftest.RO, difftest.EpName("adhoc"))
	st := stateWith(shop, map[string]api.Endpoint{
		"shop.main.primary": primary,
		state.DeposedAddress("shop.main.reports", "ep-deposed"): deposed,
		"shop.main.lost": difftest.Endpoint("ep-lost", "br-main", difftest.RO),
	})
	st.Computes["legacy.main.primary"] = LiveValues(&primary).Record("ep-legacy", gone, false)
	cfg := difftest.CfgOf(difftest.Project("shop", shop, difftest.BranchID("main", "br-main", difftest.Compute("primary"), difftest.Compute("reports", difftest.ReadOnly))))
	live := liveOf(liveProject(shop, primary, deposed, adhoc), liveProject(gone, difftest.Endpoint("ep-legacy", "br-legacy", difftest.RW)))

	p := buildScoped(t, cfg, st, live, Scope{Destroy: true})
	want := []string{"legacy.main.primary:delete", "shop.main.primary:delete", "shop.main.reports[deposed:ep-deposed]:delete"}
	if got := addresses(p); !slices.Equal(got, want) {
		t.Errorf("changes = %v, want %v", got, want)
	}
	if !changeAt(t, p, "shop.main.primary").Active {
		t.Errorf("the active primary is not marked active")
	}
	for _, ch := range p.Changes {
		if want := []Reason{{Kind: ReasonDestroy, EndpointID: ch.EndpointID}}; !slices.Equal(ch.Reasons, want) {
			t.Errorf("%s: reasons = %+v, want %+v", ch.Address, ch.Reasons, want)
		}
	}
	if len(p.Unmanaged) != 1 || p.Unmanaged[0].EndpointID != "ep-adhoc" {
		t.Errorf("unmanaged = %v, want ep-adhoc alone", p.Unmanaged)
	}
	forgets := 0
	for _, s := range p.Steps {
		if s.Forget != "" {
			forgets++
		}
	}
	if forgets != 4 || !p.Destroy {
		t.Errorf("%d steps forget an entry (want 4: every entry leaves the state), destroy %v", forgets, p.Destroy)
	}

	// Leave legacy.main.primary standing: its change and its step go, the
	// summary follows; the calls still agree, but not with the state.
	edited := *p
	edited.Changes = slices.DeleteFunc(slices.Clone(p.Changes), func(c Change) bool { return c.Address == "legacy.main.primary" })
	edited.Steps = slices.DeleteFunc(slices.Clone(p.Steps), func(s Step) bool { return s.Address == "legacy.main.primary" })
	edited.Summary.Delete--
	if err := Check(&edited); err != nil {
		t.Fatalf("Check needs no state and should pass: %v", err)
	}
	if _, err := Verify(&edited, st); err == nil || !strings.Contains(err.Error(), "the state manages legacy.main.primary (ep-legacy), which the destroy plan does not delete") {
		t.Errorf("Verify: %v, want a refusal naming legacy.main.primary", err)
	}
	edited.Projects = p.Projects[:1]
	if _, err := Verify(&edited, st); err == nil || !strings.Contains(err.Error(), "which the destroy plan does not read") {
		t.Errorf("Verify without the project: %v, want a refusal", err)
	}
	// Targets or replacements have no place in a destroy plan.
	edited = *p
	edited.Targets = []string{"shop"}
	if _, err := Verify(&edited, st); err == nil {
		t.Errorf("Verify accepts a destroy plan with targets")
	}
}

// A destroy plan deletes only managed endpoints, and nothing but deletes.
func TestDestroyOnlyDeletesManaged(t *testing.T) {
	const shop = "dark-sun-1"
	primary, stray := difftest.Endpoint("ep-primary", "br-main", difftest.RW), difftest.Endpoint("ep-stray", "br-main", difftest.RO)
	st := stateWith(shop, map[string]api.Endpoint{"shop.main.primary": primary})
	cfg := difftest.CfgOf(difftest.Project("shop", shop, difftest.Exclusive(difftest.BranchID("main", "br-main", difftest.Compute("primary", difftest.CU(1, 2))))))
	live := liveOf(liveProject(shop, primary, stray))

	// The whole plan updates the primary and deletes the stray endpoint of
	// the exclusive branch; marked as a destroy, Verify refuses both.
	p := buildScoped(t, cfg, st, live, Scope{})
	p.Destroy = true
	if _, err := Verify(p, st); err == nil || !strings.Contains(err.Error(), "a destroy plan only deletes") {
		t.Errorf("Verify: %v, want a refusal of the update", err)
	}
	d := buildScoped(t, cfg, st, live, Scope{Destroy: true})
	if got := addresses(d); !slices.Equal(got, []string{"shop.main.primary:delete"}) {
		t.Errorf("destroy changes = %v, want the managed primary alone (the stray endpoint is not neonform's)", got)
	}
}
