package diff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/sizing"
	"github.com/neonform/neonform/state"
)

// serviceDefaultSuspend is what suspend_timeout_seconds = 0 means to the service.
const serviceDefaultSuspend = 300

// planTarget plans one configured compute: create, update, replace, or
// nothing (a state-only step when only the state needs to learn something).
func (pp *projectPlan) planTarget(t *target) {
	c := t.c
	rec := desiredRecord(c, pp.p.ID, t.branchID)
	var movedFrom string
	if t.entry != nil && t.entry.origin != c.Address {
		movedFrom = t.entry.origin
	}
	if t.ep == nil {
		ch := pp.newChange(c.Address, Create, nil)
		ch.BranchID, ch.Type, ch.MovedFrom = t.branchID, rec.Type, movedFrom
		ch.Size = sizeLine(c)
		ch.Reasons = append(ch.Reasons, fmt.Sprintf("new %s on branch %s", kindWords(rec.Type), pp.branchName(t.branchID)))
		if t.entry != nil {
			ch.Reasons = append(ch.Reasons, fmt.Sprintf("its endpoint %s was deleted outside neonform, so a new one (new id and host) takes its place", t.entry.c.EndpointID))
		}
		pp.addCreate(ch, t, rec, movedFrom)
		return
	}

	ep := t.ep
	ch := pp.newChange(c.Address, NoOp, ep)
	ch.BranchID, ch.Type, ch.Adopt, ch.MovedFrom = t.branchID, rec.Type, t.adopt, movedFrom
	ch.Attributes = pp.compareAttributes(ep, c, t.branchID)
	for _, a := range ch.Attributes {
		ch.Disruption = max(ch.Disruption, a.Effect)
	}
	if t.adopt {
		ch.Reasons = append(ch.Reasons, adoptReason(ep))
	}
	if movedFrom != "" && ep.BranchID == t.branchID {
		ch.Reasons = append(ch.Reasons, fmt.Sprintf("renamed from %s by a moved block: the same endpoint, recorded under its new address", movedFrom))
	}
	ch.Reasons = append(ch.Reasons, attributeReasons(pp, ch)...)
	rec.EndpointID = ep.ID

	switch {
	case ep.Type != rec.Type:
		ch.Action, ch.Disruption = Replace, Recreate
		ch.Size = sizeLine(c)
		pp.checkLifecycle(t, ch)
		forget := ""
		if t.entry != nil {
			forget = t.entry.origin
		}
		rec.EndpointID = "" // the new endpoint's id comes from the create's response
		create := pp.addCreate(ch, t, rec, movedFrom)
		create.replaces = pp.addDelete(ch, ep, forget)
	case len(ch.Attributes) > 0:
		ch.Action = Update
		if changesSize(ch.Attributes) {
			ch.Size = sizeLine(c)
		}
		pp.checkLifecycle(t, ch)
		pp.addUpdate(ch, t, rec, movedFrom)
	case t.adopt || movedFrom != "" || !sameRecord(t.entry.c, rec):
		note := "record what is live and applied"
		switch {
		case t.adopt:
			note = fmt.Sprintf("adopt %s: it already matches the configuration", ep.ID)
		case movedFrom != "":
			note = fmt.Sprintf("rename %s to %s (moved block)", movedFrom, c.Address)
		}
		pp.addOp(&op{change: ch, t: t, step: Step{Kind: StepState, Address: c.Address, EndpointID: ep.ID,
			Record: rec, MovedFrom: movedFrom, Note: note}})
	}
}

// compareAttributes lists what differs between the live endpoint and the
// configuration, each with its effect on a running compute (DESIGN section 4).
func (pp *projectPlan) compareAttributes(ep *api.Endpoint, c *config.Compute, branchID string) []Attribute {
	var out []Attribute
	add := func(name string, before, after any, effect Disruption) {
		out = append(out, Attribute{Name: name, Before: before, After: after, Effect: effect})
	}
	if want := apiType(c.Type); ep.Type != want {
		add("type", string(ep.Type), string(want), Recreate)
	}
	if ep.BranchID != branchID {
		add("branch", ep.BranchID, branchID, Suspend)
	}
	if ep.AutoscalingLimitMinCU != c.MinCU {
		add("min_cu", ep.AutoscalingLimitMinCU, c.MinCU, Restart)
	}
	if ep.AutoscalingLimitMaxCU != c.MaxCU {
		add("max_cu", ep.AutoscalingLimitMaxCU, c.MaxCU, Restart)
	}
	for _, a := range settingsAttributes(ep.Settings.PgSettings, c.PgSettings) {
		a.Effect = Restart // settings take effect when Postgres starts
		out = append(out, a)
	}
	if effectiveSuspend(ep.SuspendTimeoutSeconds) != effectiveSuspend(c.SuspendTimeoutSeconds) {
		add("suspend_timeout", formatSuspend(ep.SuspendTimeoutSeconds), formatSuspend(c.SuspendTimeoutSeconds), None)
	}
	if ep.Name != c.Name {
		add("name", ep.Name, c.Name, None)
	}
	if ep.Disabled != c.Disabled {
		// Disabling suspends the compute; enabling only lets connections in again.
		effect := None
		if c.Disabled {
			effect = Suspend
		}
		add("disabled", ep.Disabled, c.Disabled, effect)
	}
	markSensitive(out, c)
	if out == nil {
		out = []Attribute{}
	}
	return out
}

// markSensitive marks the attributes whose configured value comes from a
// sensitive variable (c may be nil: nothing is).
func markSensitive(attrs []Attribute, c *config.Compute) {
	if c == nil || len(c.Sensitive) == 0 {
		return
	}
	for i := range attrs {
		attrs[i].Sensitive = sensitive(c, attrs[i].Name)
	}
}

func sensitive(c *config.Compute, attr string) bool {
	s := c.Sensitive
	switch {
	case attr == "min_cu" || attr == "max_cu":
		return s[attr] || s["size"]
	case strings.HasPrefix(attr, "pg_settings."):
		return s["pg_settings"]
	}
	return s[attr]
}

// sizeSensitive reports whether the compute's size comes from a sensitive variable.
func sizeSensitive(c *config.Compute) bool {
	return sensitive(c, "min_cu") || sensitive(c, "max_cu")
}

// driftAttributes lists what changed on the live endpoint since neonform last
// applied it: Before is the state's, After the live value.
func driftAttributes(c *state.Compute, ep *api.Endpoint) []Attribute {
	var out []Attribute
	add := func(name string, before, after any) {
		out = append(out, Attribute{Name: name, Before: before, After: after, Effect: None})
	}
	a := c.Applied
	if c.BranchID != ep.BranchID {
		add("branch", c.BranchID, ep.BranchID)
	}
	if a.MinCU != ep.AutoscalingLimitMinCU {
		add("min_cu", a.MinCU, ep.AutoscalingLimitMinCU)
	}
	if a.MaxCU != ep.AutoscalingLimitMaxCU {
		add("max_cu", a.MaxCU, ep.AutoscalingLimitMaxCU)
	}
	out = append(out, settingsAttributes(a.PgSettings, ep.Settings.PgSettings)...)
	if effectiveSuspend(a.SuspendTimeoutSeconds) != effectiveSuspend(ep.SuspendTimeoutSeconds) {
		add("suspend_timeout", formatSuspend(a.SuspendTimeoutSeconds), formatSuspend(ep.SuspendTimeoutSeconds))
	}
	if a.Name != ep.Name {
		add("name", a.Name, ep.Name)
	}
	if a.Disabled != ep.Disabled {
		add("disabled", a.Disabled, ep.Disabled)
	}
	return out
}

// settingsAttributes compares two pg_settings maps key by key ("pg_settings.work_mem"),
// in key order; a missing key is nil.
func settingsAttributes(before, after map[string]string) []Attribute {
	keys := slices.Sorted(maps.Keys(before))
	for k := range after {
		if _, ok := before[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []Attribute
	for _, k := range keys {
		b, inB := before[k]
		a, inA := after[k]
		if inB == inA && a == b {
			continue
		}
		out = append(out, Attribute{Name: "pg_settings." + k, Before: optional(b, inB), After: optional(a, inA), Effect: None})
	}
	return out
}

func optional(v string, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

// checkLifecycle fails a change that the compute's lifecycle block forbids.
func (pp *projectPlan) checkLifecycle(t *target, ch *Change) {
	c := t.c
	if ch.Action == Replace && c.PreventDestroy {
		rng := c.Range("lifecycle.prevent_destroy")
		pp.errorf(&rng, "Compute cannot be recreated",
			"%s has lifecycle.prevent_destroy = true, but %s: it can only be done by deleting the compute and creating a new one (new id and host). "+
				"Keep the old value, or set prevent_destroy = false to allow the recreate.", c.Address, describeCause(ch, Recreate))
	}
	if !c.AllowRestart && ch.Active && ch.Disruption >= Restart {
		rng := c.Range("lifecycle.allow_restart")
		pp.errorf(&rng, "Compute would be interrupted while active",
			"%s is active now and has lifecycle.allow_restart = false, but %s, which drops its connections. "+
				"Plan again when it is idle, or set allow_restart = true to accept the interruption.",
			c.Address, describeCause(ch, Restart))
	}
}

// describeCause names the attribute changes with at least the given effect:
// "max_cu 1 -> 2 (restart)".
func describeCause(ch *Change, atLeast Disruption) string {
	var parts []string
	for _, a := range ch.Attributes {
		if a.Effect >= atLeast {
			parts = append(parts, fmt.Sprintf("%s (%s)", a, a.Effect))
		}
	}
	return strings.Join(parts, ", ")
}

func desiredRecord(c *config.Compute, projectID, branchID string) *Record {
	settings := maps.Clone(c.PgSettings)
	if settings == nil {
		settings = map[string]string{}
	}
	return &Record{
		ProjectID: projectID, BranchID: branchID, Type: apiType(c.Type), PreventDestroy: c.PreventDestroy,
		Applied: Applied{
			Name: c.Name, MinCU: c.MinCU, MaxCU: c.MaxCU, SuspendTimeoutSeconds: c.SuspendTimeoutSeconds,
			PgSettings: settings, Disabled: c.Disabled,
		},
	}
}

func apiType(t config.ComputeType) api.EndpointType {
	if t == config.ReadOnly {
		return api.EndpointTypeReadOnly
	}
	return api.EndpointTypeReadWrite
}

func effectiveSuspend(s int64) int64 {
	if s == config.SuspendDefault {
		return serviceDefaultSuspend
	}
	return s
}

func changesSize(attrs []Attribute) bool {
	for _, a := range attrs {
		if a.Name == "min_cu" || a.Name == "max_cu" {
			return true
		}
	}
	return false
}

// sizeLine says what the compute's size gives a person: CU, RAM, connections,
// LFC, temp disk; nothing of it when the size is sensitive.
func sizeLine(c *config.Compute) string {
	if sizeSensitive(c) {
		return "size from a sensitive variable"
	}
	r := sizing.Describe(sizing.Size{Min: c.MinCU, Max: c.MaxCU})
	return r.String() + ", " + r.Extra()
}

func kindWords(t api.EndpointType) string {
	if t == api.EndpointTypeReadOnly {
		return "read replica"
	}
	return "read_write compute"
}

// branchName is "shop.main (br-...)" for a configured branch, the id otherwise.
func (pp *projectPlan) branchName(id string) string {
	if b := pp.branchOf[id]; b != nil {
		return fmt.Sprintf("%s.%s (%s)", pp.p.Label, b.Label, id)
	}
	return id
}
