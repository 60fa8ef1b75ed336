package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
)

// expandRules applies the branch rules (branches blocks) of every project to
// the project's live branches, which fetch.Live lists for a project with a rule:
// each matched branch becomes a branch block of its own, labelled
// <rule>["<name>"] and found by its name, so that from here on identity,
// adoption, exclusive, the state and the plan treat it as any branch. A
// branch that a branch block names is not matched by any rule; a branch that
// two rules match is an error naming both. cfg is not changed: projects with
// rules are copied.
func expandRules(cfg *config.Config, live *Live) (*config.Config, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var out *config.Config
	for i, p := range cfg.Projects {
		if len(p.Rules) == 0 {
			continue
		}
		if out == nil {
			cp := *cfg
			cp.Projects = slices.Clone(cfg.Projects)
			out = &cp
		}
		expanded := *p
		instances, d := ruleInstances(p, live.Projects[p.ID])
		diags = append(diags, d...)
		expanded.Branches = append(slices.Clip(p.Branches), instances...)
		out.Projects[i] = &expanded
	}
	if out == nil {
		return cfg, diags
	}
	return out, diags
}

// ruleInstances is a branch block for every live branch of a project that
// one of its rules matches, in name order.
func ruleInstances(p *config.Project, lp *LiveProject) ([]*config.Branch, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	if lp == nil {
		return nil, nil // not read: Build says so
	}
	if lp.Branches == nil {
		rng := p.Rules[0].DeclRange
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Branches not read",
			Detail:  fmt.Sprintf("Project %s has a branches block, but its branches were not read. This is a bug in neonform.", p.Label),
			Subject: &rng})
	}
	named, pinned := map[string]bool{}, map[string]bool{}
	for _, b := range p.Branches {
		if b.ID != "" {
			pinned[b.ID] = true
		} else {
			named[b.Name] = true
		}
	}
	branches := slices.Clone(lp.Branches)
	slices.SortFunc(branches, func(a, b api.Branch) int {
		return strings.Compare(a.Name, b.Name)
	})
	var out []*config.Branch
	for i, b := range branches {
		if named[b.Name] || pinned[b.ID] {
			continue // a branch block says what this branch has
		}
		var matched []*config.BranchRule
		for _, r := range p.Rules {
			if r.Matches(b.Name) {
				matched = append(matched, r)
			}
		}
		switch {
		case len(matched) == 0:
			continue
		case len(matched) > 1:
			rng := matched[1].DeclRange
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Branch matched by two rules",
				Detail: fmt.Sprintf("Branch %q (%s) of project %q matches the branches blocks %q (%s:%d) and %q (%s:%d), and a branch takes its computes from one rule. "+
					"Narrow the match of one, add the branch to the exclude of one, or declare it in a branch block of its own.",
					b.Name, b.ID, p.Label, matched[0].Label, matched[0].DeclRange.Filename, matched[0].DeclRange.Start.Line,
					matched[1].Label, rng.Filename, rng.Start.Line),
				Subject: &rng})
			continue
		case i > 0 && branches[i-1].Name == b.Name:
			continue // the error below is said once, for the first of them
		case i+1 < len(branches) && branches[i+1].Name == b.Name:
			rng := matched[0].DeclRange
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Branch name is ambiguous",
				Detail: fmt.Sprintf("Project %q has more than one branch named %q, which the branches block %q matches, and an instance of a rule is known by its branch's name. "+
					"Rename one of the branches, or add the name to the rule's exclude.", p.Label, b.Name, matched[0].Label),
				Subject: &rng})
			continue
		}
		out = append(out, matched[0].Instance(p.Label, b.Name))
	}
	return out, diags
}
