package view

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// reasonTexts are a change's reasons in words.
func reasonTexts(c *diff.Change) []string {
	out := make([]string, len(c.Reasons))
	for i, r := range c.Reasons {
		out[i] = ReasonWords(c, r)
	}
	return out
}

// Every kind of reason has its words, the sentences the plan said before
// reasons were recorded as kinds; a kind added without words fails here.
func TestEveryReasonKindHasItsWords(t *testing.T) {
	main := &diff.Branch{ID: "br-main", Label: "shop.main"}
	dev := &diff.Branch{ID: "br-dev"}
	maxCU := diff.Attribute{Name: "max_cu", Before: 1.0, After: 2.0, Effect: diff.Restart}
	typ := diff.Attribute{Name: "type", Before: "read_only", After: "read_write", Effect: diff.Recreate}
	branch := diff.Attribute{Name: "branch", Before: "br-dev", After: "br-main", Effect: diff.Suspend}
	setting := diff.Attribute{Name: "pg_settings.work_mem", Before: nil, After: "64MB", Effect: diff.Restart}
	disable := diff.Attribute{Name: "disabled", Before: false, After: true, Effect: diff.Suspend}
	enable := diff.Attribute{Name: "disabled", Before: true, After: false, Effect: diff.None}
	idle := &diff.Change{Address: "shop.main.c", Attributes: []diff.Attribute{maxCU, typ, branch, setting, disable}}
	active := &diff.Change{Address: "shop.main.c", Active: true, Attributes: []diff.Attribute{maxCU, typ, branch, setting, disable}}
	enabling := &diff.Change{Address: "shop.main.c", Attributes: []diff.Attribute{enable}}
	creating := &diff.Change{Address: "shop.main.analytics", Action: diff.Create, Type: api.EndpointTypeReadOnly}
	creatingWithDowntime := &diff.Change{Address: "shop.main.db", Action: diff.Create, Type: api.EndpointTypeReadWrite, Downtime: true}
	cases := []struct {
		change *diff.Change
		reason diff.Reason
		words  string
	}{
		{idle, diff.Reason{Kind: diff.ReasonNewCompute, Type: api.EndpointTypeReadOnly, Branch: main},
			"new read replica on branch shop.main (br-main)"},
		{idle, diff.Reason{Kind: diff.ReasonNewCompute, Type: api.EndpointTypeReadWrite, Branch: dev},
			"new read_write compute on branch br-dev"},
		{idle, diff.Reason{Kind: diff.ReasonEndpointDeletedOutside, EndpointID: "ep-gone"},
			"its endpoint ep-gone was deleted outside neonform, so a new one (new id and host) takes its place"},
		{idle, diff.Reason{Kind: diff.ReasonAdoptPrimary, EndpointID: "ep-rw"},
			"adopts ep-rw, the branch's existing read_write compute, instead of creating a second (a branch holds one; every default branch comes with one)"},
		{idle, diff.Reason{Kind: diff.ReasonAdoptReplica, EndpointID: "ep-ro", Name: "reports"},
			`adopts ep-ro, an existing read replica on this branch named "reports"`},
		{idle, diff.Reason{Kind: diff.ReasonTakeBack, EndpointID: "ep-old", From: "shop.main.c[deposed:ep-old]"},
			"takes back ep-old, which an interrupted replacement of shop.main.c left in the state as shop.main.c[deposed:ep-old]: " +
				"the configuration describes it again, so nothing is created or deleted for it"},
		{idle, diff.Reason{Kind: diff.ReasonMoved, From: "shop.main.old"},
			"renamed from shop.main.old by a moved block: the same endpoint, recorded under its new address"},
		{idle, diff.Reason{Kind: diff.ReasonNamedAfterLabel, Name: "c"},
			`the new endpoint is named "c" after the block's label, as everything neonform creates is: apply finds it by its name if the answer to the create is lost`},
		{idle, diff.Reason{Kind: diff.ReasonReplaceAsked},
			"asked with -replace: the compute is deleted and created anew, with a new endpoint id and host, whether or not anything in it changed; clients must change their connection strings"},
		{idle, diff.Reason{Kind: diff.ReasonAttributeRecreate, Attribute: "type"},
			"type read_only -> read_write cannot change in place: the compute is deleted and created anew, with a new endpoint id and host; clients must change their connection strings"},
		{idle, diff.Reason{Kind: diff.ReasonAttributeRestart, Attribute: "max_cu"},
			"max_cu 1 -> 2 restarts the compute; idle now, no connections to drop"},
		{active, diff.Reason{Kind: diff.ReasonAttributeRestart, Attribute: "max_cu"},
			"max_cu 1 -> 2 restarts the compute and drops its connections"},
		{active, diff.Reason{Kind: diff.ReasonAttributeSuspend, Attribute: "max_cu"},
			"max_cu 1 -> 2 suspends the compute and drops its connections"},
		{active, diff.Reason{Kind: diff.ReasonBranchMove, Attribute: "branch", Branch: dev, ToBranch: main},
			"moves from branch br-dev to shop.main (br-main): the service suspends the compute on the move and drops its connections"},
		{idle, diff.Reason{Kind: diff.ReasonSettingRestart, Attribute: "pg_settings.work_mem"},
			"pg_settings.work_mem (unset) -> 64MB takes effect at a restart: it restarts the compute; idle now, no connections to drop"},
		{active, diff.Reason{Kind: diff.ReasonDisable, Attribute: "disabled"},
			"disabled false -> true suspends the compute and refuses new connections; its connections drop"},
		{enabling, diff.Reason{Kind: diff.ReasonEnable, Attribute: "disabled"},
			"disabled true -> false lets the compute accept connections again; nothing running is interrupted"},
		{idle, diff.Reason{Kind: diff.ReasonOneRestart}, "all changes go in one PATCH, so the compute restarts once"},
		{idle, diff.Reason{Kind: diff.ReasonNoInterruption}, "applies without interrupting the compute"},
		{active, diff.Reason{Kind: diff.ReasonDestroy, EndpointID: "ep-x"},
			"destroy: neonform deletes the computes it manages; the endpoint ep-x and its host go away; active now, its connections drop"},
		{idle, diff.Reason{Kind: diff.ReasonNoLongerConfigured, EndpointID: "ep-x"},
			"shop.main.c is no longer in the configuration: the endpoint ep-x and its host go away"},
		{active, diff.Reason{Kind: diff.ReasonRemovedBlock, EndpointID: "ep-x"},
			"a removed block deletes shop.main.c (lifecycle.destroy = true): the endpoint ep-x and its host go away; active now, its connections drop"},
		{creating, diff.Reason{Kind: diff.ReasonMayBeRenamed, From: "shop.main.reports", EndpointID: "ep-old"},
			"shop.main.analytics may be shop.main.reports renamed (a read replica on the same branch): if it is, this moved block keeps the endpoint ep-old and its host, with no delete and no create:\n" +
				"moved {\n  from = shop.main.reports\n  to   = shop.main.analytics\n}"},
		{creatingWithDowntime, diff.Reason{Kind: diff.ReasonMayBeRenamed, From: "shop.main.primary", EndpointID: "ep-old"},
			"shop.main.db may be shop.main.primary renamed (a read_write compute on the same branch): if it is, this moved block keeps the endpoint ep-old and its host, with no delete, no create and no downtime:\n" +
				"moved {\n  from = shop.main.primary\n  to   = shop.main.db\n}"},
		{idle, diff.Reason{Kind: diff.ReasonReplacementSuperseded, EndpointID: "ep-new", Address: "shop.main.app"},
			"ep-new was made by a replacement of shop.main.app that was interrupted, and shop.main.app takes back the endpoint it replaced: the endpoint ep-new and its host go away"},
		{active, diff.Reason{Kind: diff.ReasonInterruptedReplace, EndpointID: "ep-old", Address: "shop.main.app"},
			"the replacement of shop.main.app was interrupted before it deleted ep-old, the endpoint it replaces: the endpoint ep-old and its host go away; active now, its connections drop"},
		{idle, diff.Reason{Kind: diff.ReasonInterruptedReplaceUnconfigured, EndpointID: "ep-old", Address: "shop.main.app"},
			"the replacement of shop.main.app was interrupted before it deleted ep-old, the endpoint it replaces, and shop.main.app is no longer in the configuration: the endpoint ep-old and its host go away"},
		{active, diff.Reason{Kind: diff.ReasonExclusiveBranch, Branch: main, EndpointID: "ep-adhoc", Type: api.EndpointTypeReadOnly, Name: "adhoc"},
			`branch shop.main is exclusive and no compute block declares ep-adhoc (read_only, named "adhoc"); active now, its connections drop`},
		{idle, diff.Reason{Kind: diff.ReasonExclusiveBranch, Branch: main, EndpointID: "ep-anon", Type: api.EndpointTypeReadOnly},
			`branch shop.main is exclusive and no compute block declares ep-anon (read_only)`},
		{idle, diff.Reason{Kind: diff.ReasonDowntimeReplace, Branch: main},
			"downtime: the old endpoint is deleted first, because branch shop.main (br-main) holds one read_write compute at a time; the branch has no read_write compute until the new one is up"},
		{idle, diff.Reason{Kind: diff.ReasonDowntime, Branch: main, EndpointID: "ep-old", Address: "shop.main.primary"},
			"downtime: branch shop.main (br-main) holds one read_write compute at a time; ep-old (shop.main.primary) is deleted first, so the branch has none until this one is created"},
		{idle, diff.Reason{Kind: diff.ReasonDowntime, Branch: main, EndpointID: "ep-old", ToBranch: dev, MovedIn: true},
			"downtime: branch shop.main (br-main) holds one read_write compute at a time; ep-old (not managed by neonform) moves to branch br-dev first, so the branch has none until this one has moved in"},
	}
	worded := map[diff.ReasonKind]bool{}
	for _, tt := range cases {
		worded[tt.reason.Kind] = true
		if got := ReasonWords(tt.change, tt.reason); got != tt.words {
			t.Errorf("%s:\n got %q\nwant %q", tt.reason.Kind, got, tt.words)
		}
	}
	for _, k := range diff.ReasonKinds() {
		if reasonWords[k] == nil {
			t.Errorf("reason kind %s has no words (reasonWords)", k)
		}
		if !worded[k] {
			t.Errorf("reason kind %s has no case here", k)
		}
	}
	if len(reasonWords) != len(diff.ReasonKinds()) {
		t.Errorf("reasonWords words %d kinds, the model has %d", len(reasonWords), len(diff.ReasonKinds()))
	}
}

// A reason that quotes an attribute's values hides them as the change
// hides the attribute; a replica adopted by a name from a sensitive
// variable is named by the variable.
func TestReasonWordsHideSensitiveValues(t *testing.T) {
	c := &diff.Change{Address: "shop.main.c", Sensitive: []string{"max_cu", "name"}, SensitiveFrom: map[string][]string{"name": {"replica_name"}},
		Attributes: []diff.Attribute{{Name: "max_cu", Before: 1.0, After: 7.0, Effect: diff.Restart, Sensitive: true}}}
	got := ReasonWords(c, diff.Reason{Kind: diff.ReasonAttributeRestart, Attribute: "max_cu"}) + "\n" +
		ReasonWords(c, diff.Reason{Kind: diff.ReasonAdoptReplica, EndpointID: "ep-a", Name: "rep-TOPSECRET"})
	if strings.Contains(got, "7") || strings.Contains(got, "TOPSECRET") || !strings.Contains(got, "max_cu (sensitive value) -> (sensitive value) restarts") ||
		!strings.Contains(got, "named (sensitive value from var.replica_name)") {
		t.Errorf("words:\n%s", got)
	}
}
