package diff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
)

func attributeOf(t *testing.T, ch *Change, name string) *Attribute {
	t.Helper()
	for i := range ch.Attributes {
		if ch.Attributes[i].Name == name {
			return &ch.Attributes[i]
		}
	}
	t.Fatalf("change %s has no attribute %s", ch.Address, name)
	return nil
}

// An update's request is derived from the values it changes: values that
// only a new endpoint can have (a type) are refused, never dropped from the
// request.
func TestUpdateOfARecreateAttributeIsRefused(t *testing.T) {
	live := &LiveEndpoint{ID: "ep-reports", Values: LiveValues(ptr(difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports"))))}
	want := live.Values
	want.Type = difftest.RW
	d := &deriver{project: difftest.Proj, holders: map[string]string{}}
	err := d.addUpdate(&Change{Address: "shop.main.reports", ProjectID: difftest.Proj}, live, want, "")
	if err == nil || err.Error() != "an update cannot change type, which only a new endpoint can have" {
		t.Errorf("addUpdate: %v", err)
	}
	if len(d.ops) != 0 {
		t.Errorf("addUpdate planned %d steps for an update it refused", len(d.ops))
	}
}

func ptr[T any](v T) *T { return &v }

// A Postgres setting set to "" is not an unset one: the service passes it
// to Postgres as written. Either way round, the plan changes it.
func TestAnEmptySettingIsNotAnUnsetOne(t *testing.T) {
	for _, tt := range []struct {
		name          string
		live          api.Endpoint
		config        []difftest.Opt
		before, after any
	}{
		{"set to empty live, unset in the configuration", difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports"), difftest.EpPG("search_path", "")),
			[]difftest.Opt{difftest.ReadOnly}, "", nil},
		{"unset live, set to empty in the configuration", difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports")),
			[]difftest.Opt{difftest.ReadOnly, difftest.PG("search_path", "")}, nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("reports", tt.config...))))
			st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.reports": tt.live})
			p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, tt.live)))
			ch := changeAt(t, p, "shop.main.reports")
			want := []Attribute{{Name: "pg_settings.search_path", Before: tt.before, After: tt.after, Effect: Restart}}
			if ch.Action != Update || !cmp.Equal(ch.Attributes, want) {
				t.Errorf("change: %v %+v, want an update of %+v", ch.Action, ch.Attributes, want)
			}
		})
	}
}

// A compute whose only change is lifecycle.prevent_destroy needs no call,
// but the state records it (destroy and replacements read it there): a
// state-only step.
func TestPreventDestroyAloneIsRecorded(t *testing.T) {
	ep := difftest.Endpoint("ep-reports", difftest.BrMain, difftest.RO, difftest.EpName("reports"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("reports", difftest.ReadOnly, difftest.PreventDestroy))))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.reports": ep})
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, ep)))
	if got, want := stepLines(p), []string{"STATE shop.main.reports"}; !cmp.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	if rec := p.Steps[0].Record; rec == nil || !rec.PreventDestroy || rec.EndpointID != "ep-reports" {
		t.Errorf("record = %+v, want ep-reports with prevent_destroy", rec)
	}
	if p.Summary.StateOnly != 1 {
		t.Errorf("summary = %+v, want 1 state-only step", p.Summary)
	}
	// Recorded, the plan after has nothing to do.
	st.Computes["shop.main.reports"].PreventDestroy = true
	if p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, ep))); p.HasChanges() {
		t.Errorf("once recorded, the plan still has steps: %v", stepLines(p))
	}
}

// A step that ends a branch's time without a read_write compute runs as
// soon as it can, before steps that come first by address: here the new
// primary (shop.main.writer) is created right after the old one's delete,
// before the read replica (shop.main.replica).
func TestTheEndOfDowntimeComesFirst(t *testing.T) {
	old := difftest.Endpoint("ep-old", difftest.BrMain, difftest.RW, difftest.EpName("old"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("writer"), difftest.Compute("replica", difftest.ReadOnly))))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.old": old})
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, old)))
	want := []string{"DELETE shop.main.old", "POST shop.main.writer after 1", "POST shop.main.replica"}
	if got := stepLines(p); !cmp.Equal(got, want) {
		t.Errorf("steps = %v, want %v", got, want)
	}
}

// The planner holds every plan it makes to the rules apply holds plans to
// (CheckMade): one whose create names no endpoint is refused, with what is
// wrong.
func TestCheckMadeRefusesWhatApplyWouldRefuse(t *testing.T) {
	cfg, st, live := busyScenario(false)
	p := mustBuild(t, cfg, st, live) // which CheckMade accepts (checkVerifies)
	// A planner that lost the name of a create, as it once did replacing
	// an endpoint kept without one: the steps derive from its changes.
	attributeOf(t, changeAt(t, p, "shop.main.new"), "name").After = ""
	if _, err := derive(p, st, nil); err != nil {
		t.Fatal(err)
	}
	Normalize(p)
	want := "(shop.main.new): a create must name the endpoint"
	if err := CheckMade(p); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("CheckMade: %v\nwant it to say: %s", err, want)
	}
}
