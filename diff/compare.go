package diff

import (
	"fmt"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
)

// planTarget plans one configured compute: create, update, replace, or
// nothing. Its steps are derived from the change afterwards (derive.go).
func (pp *projectPlan) planTarget(t *target) {
	c := t.c
	var liveName *string
	if t.ep != nil {
		liveName = &t.ep.Name
	}
	want := wantedValues(c, t.branchID, liveName)
	var movedFrom string
	if t.entry != nil && t.entry.origin != c.Address && t.entry.move != nil {
		movedFrom = t.entry.origin
	}
	if t.ep == nil {
		ch := pp.newChange(c.Address, Create, nil)
		ch.MovedFrom, ch.PreventDestroy, ch.BranchName = movedFrom, c.PreventDestroy, t.byName
		ch.Attributes = want.every()
		ch.Sensitive, ch.SensitiveFrom = SensitiveAttributes(c), SensitiveFrom(c)
		MarkSensitive(ch.Attributes, ch.Secrets())
		// derive gives the reasons that follow from the change (reasons.go);
		// these follow from the configuration and the state.
		if t.entry != nil {
			ch.Reasons = append(ch.Reasons, Reason{Kind: ReasonEndpointDeletedOutside, EndpointID: t.entry.c.EndpointID})
		}
		if pp.pl.scope.replace[c.Address] {
			pp.warnf("-replace %s: it has no endpoint yet, so there is nothing to replace; the plan creates it.", c.Address)
		}
		return
	}

	ep := t.ep
	ch := pp.newChange(c.Address, NoOp, ep)
	ch.Adopt, ch.MovedFrom, ch.PreventDestroy, ch.BranchName = t.adopt, movedFrom, c.PreventDestroy, t.byName
	ch.Attributes = Differences(ep.Values, want)
	ch.Sensitive, ch.SensitiveFrom = SensitiveAttributes(c), SensitiveFrom(c)
	MarkSensitive(ch.Attributes, ch.Secrets())
	if t.entry != nil {
		// What is live may still be what a sensitive variable gave it, though
		// the configuration no longer says so: its drift is hidden too.
		MarkSensitive(ch.Attributes, SecretsOf(t.entry.c))
	}
	// derive gives the adoption, the rename, -replace and the attributes'
	// reasons (reasons.go); taking back a deposed endpoint is the state's.
	if !t.adopt && t.entry.deposed {
		ch.Reasons = append(ch.Reasons, Reason{Kind: ReasonTakeBack, EndpointID: ep.ID, From: t.entry.origin})
	}
	switch {
	case recreates(ch.Attributes) || pp.pl.scope.replace[c.Address]:
		ch.Action = Replace
		if want.Name == "" {
			// An endpoint kept without a name (a project's first primary)
			// is replaced by one named as anything neonform creates: a
			// create always carries a name, by which apply finds its
			// endpoint again when the answer is lost. The plan shows it.
			want.Name = c.Name
			ch.Attributes = Differences(ep.Values, want)
			MarkSensitive(ch.Attributes, ch.Secrets())
			ch.Reasons = append(ch.Reasons, Reason{Kind: ReasonNamedAfterLabel, Name: c.Name})
		}
	case len(ch.Attributes) > 0:
		ch.Action = Update
	}
	ch.Disruption = disruptionOf(ch.Action, ch.Attributes)
	pp.checkLifecycle(t, ch)
}

// recreates reports whether some attribute cannot change in place.
func recreates(attrs []Attribute) bool {
	for _, a := range attrs {
		if a.Effect == Recreate {
			return true
		}
	}
	return false
}

// disruptionOf is what a change does to a running compute: the worst effect
// among its attributes, or what its action does whatever they are.
func disruptionOf(a Action, attrs []Attribute) Disruption {
	switch a {
	case Create:
		return None
	case Replace:
		return Recreate
	case Delete:
		return Remove
	}
	d := None
	for _, at := range attrs {
		d = max(d, at.Effect)
	}
	return d
}

// checkLifecycle fails a change that the compute's lifecycle block forbids.
func (pp *projectPlan) checkLifecycle(t *target, ch *Change) {
	c := t.c
	asked := pp.pl.scope.replace[c.Address]
	if ch.Action == Replace && c.PreventDestroy && asked && !recreates(ch.Attributes) {
		rng := c.Range("lifecycle.prevent_destroy")
		pp.errorf(&rng, "Compute cannot be recreated",
			"%s has lifecycle.prevent_destroy = true, but -replace asks to recreate it: that deletes the compute and creates a new one (new id and host). "+
				"Drop -replace %s, or set prevent_destroy = false to allow the recreate.", c.Address, c.Address)
	} else if ch.Action == Replace && c.PreventDestroy {
		rng := c.Range("lifecycle.prevent_destroy")
		pp.errorf(&rng, "Compute cannot be recreated",
			"%s has lifecycle.prevent_destroy = true, but %s: it can only be done by deleting the compute and creating a new one (new id and host). "+
				"Keep the old value, or set prevent_destroy = false to allow the recreate.", c.Address, describeCause(ch, Recreate))
	}
	ch.RestartIdleOnly = idleOnly(ch, c.AllowRestart)
	if !c.AllowRestart && ch.Active && ch.Disruption >= Restart {
		rng := c.Range("lifecycle.allow_restart")
		cause := describeCause(ch, Restart)
		if asked {
			cause = strings.TrimSuffix("-replace asks to recreate it, "+cause, ", ")
		}
		pp.errorf(&rng, "Compute would be interrupted while active",
			"%s is active now and has lifecycle.allow_restart = false, but %s, which drops its connections. "+
				"Plan again when it is idle, or set allow_restart = true to accept the interruption.",
			c.Address, cause)
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

// changesSize reports whether a change sets the compute's size.
func changesSize(attrs []Attribute) bool {
	for _, a := range attrs {
		if isSize(a.Name) {
			return true
		}
	}
	return false
}

// isSize reports whether a plan attribute is one end of the compute's size.
func isSize(name string) bool {
	at := managed.Named(name)
	return at != nil && at.IsSize()
}

// HiddenSize is what people read instead of a size that comes from a
// sensitive variable: a size is one thing to a person, so either end hides it.
const HiddenSize = "size from a sensitive variable"

// SizeSensitive reports whether a compute block's size comes from a
// sensitive variable, at either end.
func SizeSensitive(c *config.Compute) bool {
	for _, a := range managed.InPlan {
		if a.IsSize() && a.Sensitive(c.Sensitive) {
			return true
		}
	}
	return false
}

// sizeLine says what a size gives a person: CU, RAM, connections, LFC, temp
// disk; nothing of it when the size comes from a sensitive variable.
func sizeLine(v Values, attrs []Attribute) string {
	for _, a := range attrs {
		if isSize(a.Name) && a.Sensitive {
			return HiddenSize
		}
	}
	r := sizing.Describe(v.Size())
	return r.String() + ", " + r.Extra()
}
