package diff

import (
	"fmt"
	"slices"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/state"
)

// DefaultsChange is what the plan does to a project's compute defaults (its
// defaults block): what the service gives the computes it creates in the
// project from then on, a branch created with a compute among them.
// Computes that exist keep their values, so nothing restarts: each
// attribute's effect is none. Its attributes are the attribute table's,
// compared by its rules, before what the project has, after what the block
// asks; none when they already agree (one for every defaults block, as a
// no-op change for every compute, so that its sensitive values are known).
type DefaultsChange struct {
	// Address is "<project>.defaults".
	Address    string      `json:"address"`
	ProjectID  string      `json:"project_id"`
	Attributes []Attribute `json:"attributes"`
	// Sensitive and SensitiveFrom are as a Change's: the block's attributes
	// whose value comes from a sensitive variable, which every view hides.
	Sensitive     []string            `json:"sensitive,omitempty"`
	SensitiveFrom map[string][]string `json:"sensitive_from,omitempty"`
}

// Secrets are the defaults' sensitive attributes and their variables.
func (c *DefaultsChange) Secrets() Secrets { return Secrets{c.Sensitive, c.SensitiveFrom} }

// defaultsValues reads a project's defaults (nil: none) as the attribute
// table says: what a compute created without values of its own gets (the
// service's defaults for what the project leaves out).
func defaultsValues(d *api.DefaultEndpointSettings) Values {
	return Values(managed.DefaultsValues(d))
}

// defaultsDifferences are the differences of the attributes a project's
// defaults have (managed.Attribute.ProjectDefault), each with no effect on a
// running compute.
func defaultsDifferences(before, after Values) []Attribute {
	var out []Attribute
	for _, a := range Differences(before, after) {
		if m := managed.Named(a.Name); m != nil && m.ProjectDefault {
			a.Effect = None
			out = append(out, a)
		}
	}
	return out
}

// planDefaults is the change a project's defaults block asks of the
// project's live defaults; nil without a block.
func planDefaults(p *config.Project, lp *LiveProject) *DefaultsChange {
	if p.Defaults == nil || lp.Defaults == nil {
		return nil
	}
	want := ConfiguredValues(p.Defaults, "")
	attrs := defaultsDifferences(defaultsValues(lp.Defaults), want)
	for i := range attrs {
		attrs[i].Sensitive = managed.Named(attrs[i].Name).Sensitive(p.Defaults.Sensitive)
		if attrs[i].Sensitive {
			attrs[i].SensitiveFrom = managed.Named(attrs[i].Name).From(p.Defaults.SensitiveFrom)
		}
	}
	dc := &DefaultsChange{Address: p.Label + "." + config.DefaultsLabel, ProjectID: p.ID, Attributes: attrs}
	for _, a := range managed.All {
		if a.ProjectDefault && a.Sensitive(p.Defaults.Sensitive) {
			dc.Sensitive = append(dc.Sensitive, a.Name)
			if from := a.From(p.Defaults.SensitiveFrom); len(from) > 0 {
				if dc.SensitiveFrom == nil {
					dc.SensitiveFrom = map[string][]string{}
				}
				dc.SensitiveFrom[a.Name] = from
			}
		}
	}
	return dc
}

// defaults checks a change to the project's defaults against the defaults
// the plan recorded, and plans its PATCH: every value a defaults block
// manages is sent, so that the project has exactly what the block asks.
func (d *deriver) defaults(ch *DefaultsChange, proj *Project) error {
	if proj.Defaults == nil {
		return fmt.Errorf("it changes the defaults of project %s, which the plan did not read", proj.ID)
	}
	base := defaultsValues(proj.Defaults)
	want := base.clone()
	for _, a := range ch.Attributes {
		at := managed.Named(a.Name)
		if at == nil || !at.ProjectDefault {
			return fmt.Errorf("it has an attribute %q that a project's defaults do not have", a.Name)
		}
		if err := at.SetAfter(want.table(), a); err != nil {
			return err
		}
	}
	made := defaultsDifferences(base, want)
	if len(made) != len(ch.Attributes) {
		return fmt.Errorf("it lists %d attributes, but its values differ from the project's defaults in %d", len(ch.Attributes), len(made))
	}
	for i := range made {
		made[i].Sensitive, made[i].SensitiveFrom = ch.Attributes[i].Sensitive, ch.Attributes[i].SensitiveFrom
		if got, w := mustJSON(ch.Attributes[i]), mustJSON(made[i]); string(got) != string(w) {
			return fmt.Errorf("its attribute %s is not what its values make", ch.Attributes[i].Name)
		}
	}
	body := defaultsRequest(want)
	if len(made) == 0 {
		// They agree: nothing to send. The state records them if it does
		// not yet, so that a change in the console later is drift.
		if rec := d.st.Defaults[ch.Address]; d.withState && (rec == nil || rec.ProjectID != proj.ID ||
			len(defaultsDifferences(AppliedValues(&state.Compute{Applied: rec.Applied}), want)) > 0) {
			d.addOp(&op{step: Step{Kind: StepState, Address: ch.Address, Defaults: &body,
				Note: "record the project's compute defaults, which already match the configuration"}})
		}
		return nil
	}
	d.addOp(&op{step: Step{Kind: StepDefaults, Address: ch.Address, Method: "PATCH", Path: "/projects/" + proj.ID,
		Body: mustJSON(body), Defaults: &body}})
	return nil
}

// defaultsRequest is the PATCH that gives a project the defaults want,
// every value a defaults block manages included.
func defaultsRequest(want Values) api.ProjectDefaultsUpdate {
	sent := managed.DefaultsSent(managed.Values(want))
	return api.ProjectDefaultsUpdate{Project: api.ProjectDefaultsPatch{DefaultEndpointSettings: sent}}
}

// defaultsDrift is the drift of a project's defaults: what the state says
// was applied against what the project has now; nil when they agree, or
// when neither the plan nor the state knows them.
func defaultsDrift(st *state.State, proj *Project, dc *DefaultsChange) *Drift {
	addr := proj.Label + "." + config.DefaultsLabel
	applied := st.Defaults[addr]
	if applied == nil || proj.Defaults == nil || applied.ProjectID != proj.ID {
		return nil
	}
	attrs := defaultsDifferences(AppliedValues(&state.Compute{Applied: applied.Applied}), defaultsValues(proj.Defaults))
	if len(attrs) == 0 {
		return nil
	}
	if dc != nil {
		s := dc.Secrets()
		for i := range attrs {
			if s.Hides(attrs[i].Name) {
				attrs[i].Sensitive, attrs[i].SensitiveFrom = true, s.Vars(attrs[i].Name)
			}
		}
	}
	return &Drift{Address: addr, ProjectID: proj.ID, Attributes: attrs}
}

// defaultsOf is the change to a project's defaults in p, or nil.
func defaultsOf(p *Plan, projectID string) *DefaultsChange {
	i := slices.IndexFunc(p.Defaults, func(c DefaultsChange) bool { return c.ProjectID == projectID })
	if i < 0 {
		return nil
	}
	return &p.Defaults[i]
}

// DefaultsChangedSince lists what differs in project projectID's compute
// defaults between what the plan p read and now, by the attribute table's
// rules (apply refuses a plan whose defaults changed since), each marked
// sensitive as the plan's defaults block makes it, so that every view hides
// its values.
func DefaultsChangedSince(p *Plan, projectID string, now *api.DefaultEndpointSettings) []Attribute {
	i := slices.IndexFunc(p.Projects, func(proj Project) bool { return proj.ID == projectID })
	if i < 0 {
		return nil
	}
	attrs := defaultsDifferences(defaultsValues(p.Projects[i].Defaults), defaultsValues(now))
	if dc := defaultsOf(p, projectID); dc != nil {
		s := dc.Secrets()
		for j := range attrs {
			if s.Hides(attrs[j].Name) {
				attrs[j].Sensitive, attrs[j].SensitiveFrom = true, s.Vars(attrs[j].Name)
			}
		}
	}
	return attrs
}

// defaultsApplied is what the state records of a project's defaults once
// the request u is done, read by the attribute table.
func defaultsApplied(u *api.ProjectDefaultsUpdate, projectID string) *state.Defaults {
	applied := defaultsValues(u.Project.DefaultEndpointSettings.Settings())
	return &state.Defaults{ProjectID: projectID, Applied: applied.Record("", projectID, false).Applied}
}
