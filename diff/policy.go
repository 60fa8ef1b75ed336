package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/state"
)

// A saved plan is applied later, maybe after its file was edited, maybe after
// the configuration changed. The fields of a change that come from the
// configuration (its lifecycle block and which of its values are sensitive)
// cannot be derived from the rest of the plan, so apply holds them to the
// configuration as it is then, and the stricter side wins: a plan never
// permits what the current configuration forbids (docs/security.md).

// Policy is what the current configuration says of each compute that a
// plan must not loosen: its lifecycle block and its sensitive attributes.
// PolicyOf makes it; apply holds a plan to it (HoldTo).
type Policy struct {
	computes map[string]*config.Compute // by address
	rules    map[string]*config.Compute // branch rules' templates, by <project>.<rule>[*].<compute>
	// unread are the computes whose lifecycle could not be read (a
	// variable it uses has no value here): held to the strictest.
	unread map[*config.Compute]bool
	dir    string
}

// PolicyOf is the policy of a configuration as loaded, with the
// diagnostics of its load: a lifecycle attribute with an error (a variable
// without a value when a saved plan is applied) counts as the strictest.
func PolicyOf(cfg *config.Config, diags diag.Diagnostics) *Policy {
	p := &Policy{computes: map[string]*config.Compute{}, rules: map[string]*config.Compute{}, unread: map[*config.Compute]bool{}, dir: cfg.Dir}
	var bad []hcl.Range
	for _, d := range diags {
		if d.Severity == diag.SeverityError && d.Range != nil {
			bad = append(bad, *d.Range)
		}
	}
	note := func(c *config.Compute) {
		for _, attr := range []string{"lifecycle.prevent_destroy", "lifecycle.allow_restart"} {
			if r, ok := c.Ranges.Get(attr); ok && slices.ContainsFunc(bad, func(b hcl.Range) bool { return b.Filename == r.Filename && r.ContainsOffset(b.Start.Byte) }) {
				p.unread[c] = true
			}
		}
	}
	for _, proj := range cfg.Projects {
		for _, b := range proj.Branches {
			for _, c := range b.Computes {
				p.computes[c.Address] = c
				note(c)
			}
		}
		for _, r := range proj.Rules {
			for _, c := range r.Computes {
				p.rules[c.Address] = c
				note(c)
			}
		}
	}
	return p
}

// compute is the configured compute at an address (of an instance of a
// branch rule: the rule's), or nil when the configuration has none.
func (p *Policy) compute(address string) *config.Compute {
	if c := p.computes[address]; c != nil {
		return c
	}
	proj, branch, comp, err := config.ParseAddress(address)
	if err != nil {
		return nil
	}
	if label, _, keyed := config.SplitInstance(branch); keyed {
		return p.rules[config.AddressOf(proj, config.AllInstances(label), comp)]
	}
	return nil
}

// lifecycle is a compute's lifecycle as the policy holds a plan to it.
func (p *Policy) lifecycle(c *config.Compute) (preventDestroy, allowRestart bool) {
	if p.unread[c] {
		return true, false
	}
	return c.PreventDestroy, c.AllowRestart
}

// idleOnly reports whether a change may interrupt its compute only while
// it is idle (Change.RestartIdleOnly), under allowRestart.
func idleOnly(ch *Change, allowRestart bool) bool {
	return !allowRestart && (ch.Action == Update || ch.Action == Replace) && ch.Disruption >= Restart
}

// newPlan is the command that makeANewPlan suggests.
var newPlan = suggest.Run("plan", "-out", "plan.json")

// makeANewPlan ends HoldTo's refusals.
var makeANewPlan = "Nothing was changed: make a new plan with " + newPlan.Quoted() + ", review it and apply it"

// HoldTo refuses a plan, verified against st (steps: Verify's), that
// permits what pol forbids: a change that restarts a compute whose
// configuration says lifecycle.allow_restart = false without the plan's
// restart_idle_only; a replace or delete of a compute that
// lifecycle.prevent_destroy keeps (the configuration's block, or the
// state's record of a compute no longer configured); a change that records
// prevent_destroy = false, or fewer sensitive attributes, than the
// configuration says; a forget (removed block) of a compute the
// configuration declares. The error names the field and the step. A nil pol
// holds the plan to nothing.
func HoldTo(p *Plan, st *state.State, steps []Step, pol *Policy) error {
	if pol == nil {
		return nil
	}
	for i := range p.Changes {
		ch := &p.Changes[i]
		if field, why := pol.loosens(ch, st); field != "" {
			return diag.ErrorAt(ch.Address, "Plan allows what the configuration forbids",
				fmt.Sprintf("%s of change %s (%s): %s. %s", field, ch.Address, stepOf(steps, ch.Address), why, makeANewPlan), newPlan)
		}
	}
	for _, addr := range p.Forget {
		if c := pol.compute(addr); c != nil {
			return diag.ErrorAt(addr, "Plan allows what the configuration forbids",
				fmt.Sprintf("forget of %s (%s): the configuration%s declares it, but the plan stops managing it, as a removed block with destroy = false asked when it was made. %s",
					addr, stepOf(steps, addr), pol.where(c, ""), makeANewPlan), newPlan)
		}
	}
	return nil
}

// loosens names the field of ch that permits what the configuration (or,
// for a compute no longer configured, the state) forbids, and why.
func (pol *Policy) loosens(ch *Change, st *state.State) (field, why string) {
	c := pol.compute(baseOf(ch.Address))
	if c == nil {
		if ch.Action != Delete && ch.Action != Replace {
			return "", ""
		}
		// No longer configured: the state's record decides, as when planned.
		if rec := st.Computes[ch.Address]; rec != nil && rec.PreventDestroy && rec.EndpointID == ch.EndpointID {
			return "prevent_destroy", fmt.Sprintf("the state records lifecycle.prevent_destroy = true for it, but the plan %ss it", ch.Action)
		}
		return "", ""
	}
	prevent, allow := pol.lifecycle(c)
	switch {
	case prevent && (ch.Action == Delete || ch.Action == Replace):
		return "prevent_destroy", fmt.Sprintf("the configuration%s says lifecycle.prevent_destroy = true, but the plan %ss it", pol.where(c, "lifecycle.prevent_destroy"), ch.Action)
	case idleOnly(ch, allow) && !ch.RestartIdleOnly:
		return "restart_idle_only", fmt.Sprintf("the configuration%s says lifecycle.allow_restart = false, but the plan says restart_idle_only = false, and its change %ss the compute whether it is idle or not",
			pol.where(c, "lifecycle.allow_restart"), ch.Disruption)
	case prevent && !ch.PreventDestroy && ch.Action != Delete:
		return "prevent_destroy", fmt.Sprintf("the configuration%s says lifecycle.prevent_destroy = true, but the plan says prevent_destroy = false, which apply records in the state",
			pol.where(c, "lifecycle.prevent_destroy"))
	}
	if ch.Address != baseOf(ch.Address) {
		return "", "" // a deposed endpoint: its change records nothing of the block
	}
	for _, name := range SensitiveAttributes(c) {
		if !slices.Contains(ch.Sensitive, name) && ch.Action != Delete {
			return "sensitive", fmt.Sprintf("the configuration%s takes %s from a sensitive variable, but the plan does not list it as sensitive, so its value would be shown", pol.where(c, ""), name)
		}
	}
	return "", ""
}

// where is " (main.hcl:12)", where the compute's block writes attr (the
// block, when it does not), or "" when the policy does not know; and says
// when its lifecycle could not be read.
func (pol *Policy) where(c *config.Compute, attr string) string {
	w := ""
	if r := c.Range(attr); r.Filename != "" {
		w = fmt.Sprintf(" (%s:%d)", r.Filename, r.Start.Line)
	}
	if pol.unread[c] {
		w += ", whose lifecycle block uses variables without a value here and so counts as the strictest,"
	}
	return w
}

// stepOf names the first step of a compute: "step 3", or "no step" for a
// change without one.
func stepOf(steps []Step, address string) string {
	for _, s := range steps {
		if s.Address == address {
			return fmt.Sprintf("step %d, %s", s.ID, strings.TrimSpace(callWords(&s)))
		}
	}
	return "no step"
}
