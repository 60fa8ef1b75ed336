package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/nearest"
	"github.com/neonform/neonform/state"
)

// A -target or -replace must hit something (docs/plans.md, Planning a
// part). One that names a branch rule, an instance of one (by its branch's
// name) or a compute of one is known to hit only once the project's branches
// are listed, so it is checked here, with them; the CLI refuses every other
// address that names nothing before any call. fetch.Live checks with the
// branches before it reads the project's endpoints, and Build again with
// what it is given.

// CheckRuleTargets refuses each -target of s in project p that a branch rule
// of p takes part in and that covers no compute (configured, or of a rule's
// instance on one of branches) and no state entry; and each -replace of a
// rule's instance that no live branch gives. Each error names the rule (its
// block is the subject), says whether the branch exists and why the rule
// does not take it, and the nearest addresses there are.
func CheckRuleTargets(p *config.Project, branches []api.Branch, st *state.State, s Scope) diag.Diagnostics {
	return diag.FromHCL(ruleTargets(p, branches, st, s))
}

// ruleTargets is CheckRuleTargets in hcl's diagnostics, which the planner makes.
func ruleTargets(p *config.Project, branches []api.Branch, st *state.State, s Scope) hcl.Diagnostics {
	if len(p.Rules) == 0 || (len(s.Targets) == 0 && len(s.Replace) == 0) {
		return nil
	}
	instances, _ := ruleInstances(p, &LiveProject{ID: p.ID, Branches: branches}) // two rules on one branch: Build says so
	var computes, recorded []string
	for _, b := range slices.Concat(p.Branches, instances) {
		for _, c := range b.Computes {
			computes = append(computes, c.Address)
		}
	}
	if st != nil {
		for _, addr := range st.Addresses() {
			if c := st.Computes[addr]; c != nil && c.ProjectID == p.ID {
				recorded = append(recorded, baseOf(addr))
			}
		}
	}
	hits := func(t string) bool {
		covered := func(a string) bool { return Covers(t, a) }
		return slices.ContainsFunc(computes, covered) || slices.ContainsFunc(recorded, covered)
	}
	m := misses{p: p, branches: branches, known: slices.Concat(computes, recorded)}
	var diags hcl.Diagnostics
	for _, t := range s.Targets {
		if a, ok := m.ruleAddress(t); ok && !hits(t) {
			diags = append(diags, m.refuse("-target", "Target matches nothing", a))
		}
	}
	for _, r := range s.Replace {
		// Only a rule's instance: the CLI and checkReplaced refuse the others.
		if a, ok := m.ruleAddress(r); ok && a.keyed && !slices.Contains(computes, r) {
			diags = append(diags, m.refuse("-replace", "No compute to replace", a))
		}
	}
	return diags
}

// RuleTargeted reports whether a -target or -replace of s is of a branch
// rule of p: whether it hits something is known from p's branches
// (CheckRuleTargets).
func RuleTargeted(p *config.Project, s Scope) bool {
	m := misses{p: p}
	for _, a := range slices.Concat(s.Targets, s.Replace) {
		if _, ok := m.ruleAddress(a); ok {
			return true
		}
	}
	return false
}

// misses words the refusals of one project's rule addresses.
type misses struct {
	p        *config.Project
	branches []api.Branch
	// known are the compute addresses there are: configured, rules'
	// instances, state entries.
	known []string
}

// ruleAddress is a flag's address in one of the project's rules.
type ruleAddress struct {
	address string
	parts   []string
	rule    *config.BranchRule
	// branch is the name of the instance's branch, when keyed.
	branch string
	keyed  bool
}

// ruleAddress parses address when it is of one of the project's rules: its
// branch part is a rule's label, with or without a key.
func (m misses) ruleAddress(address string) (ruleAddress, bool) {
	parts, err := config.ParsePartialAddress(address)
	if err != nil || parts[0] != m.p.Label || len(parts) < 2 {
		return ruleAddress{}, false
	}
	label, key, keyed := config.SplitInstance(parts[1])
	for _, r := range m.p.Rules {
		if r.Label == label {
			return ruleAddress{address: address, parts: parts, rule: r, branch: key, keyed: keyed}, true
		}
	}
	return ruleAddress{}, false
}

// refuse is the error of a flag's address that hits nothing: what is
// missing, the nearest addresses there are, and what to do.
func (m misses) refuse(flag, summary string, a ruleAddress) *hcl.Diagnostic {
	why := fmt.Sprintf("the branches block %q matches no branch of project %s now (%s), and the state records none of its computes", a.rule.Label, m.p.Label, globs(a.rule))
	fix := "Check the rule's match, or drop " + flag + "."
	elsewhere := false
	if a.keyed {
		why, fix, elsewhere = m.whyNoInstance(flag, a)
	}
	var near diag.Near
	said := fmt.Sprintf("%s %s: %s, so nothing would be planned for it.", flag, a.address, why)
	if !elsewhere {
		var instances string
		near.Names, instances = m.nearest(a)
		near.At, said = len(said), said+instances
	}
	rng := a.rule.DeclRange
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   said + " " + fix,
		Subject:  &rng,
		Extra:    near,
	}
}

// whyNoInstance says why a's rule has no instance for a's branch, and what
// to do: there is no such branch, a branch block of its own declares it
// (elsewhere: the fix names its address), the rule does not match it, two
// rules do, or the rule has no such compute.
func (m misses) whyNoInstance(flag string, a ruleAddress) (why, fix string, elsewhere bool) {
	name := a.branch
	live := slices.IndexFunc(m.branches, func(b api.Branch) bool { return b.Name == name })
	if live < 0 {
		return fmt.Sprintf("project %s has no branch named %q, and a branches block has an instance only for a live branch it matches", m.p.Label, name),
			"Check the branch's name, or create the branch first.", false
	}
	for _, b := range m.p.Branches {
		if b.Name == name || (b.ID != "" && b.ID == m.branches[live].ID) {
			return fmt.Sprintf("branch %q is declared by a branch block of its own, which the branches blocks leave it to", name),
				fmt.Sprintf("Name that block instead: %s %s.", flag, strings.Join(slices.Concat(a.parts[:1], []string{b.Label}, a.parts[2:]), ".")), true
		}
	}
	if !a.rule.Matches(name) {
		return fmt.Sprintf("the branches block %q does not match branch %q (%s)", a.rule.Label, name, globs(a.rule)),
			"Change the block's match, or declare the branch in a branch block of its own.", false
	}
	for _, r := range m.p.Rules {
		if r != a.rule && r.Matches(name) {
			return fmt.Sprintf("branch %q is matched by the branches blocks %q and %q, and takes its computes from one", name, a.rule.Label, r.Label),
				"Narrow the match of one, or add the branch to the exclude of one.", true
		}
	}
	return fmt.Sprintf("the branches block %q declares no compute %s", a.rule.Label, a.parts[len(a.parts)-1]),
		"Check the compute's label.", false
}

// globs is what a rule matches, as its block writes it.
func globs(r *config.BranchRule) string {
	s := "match " + quoteAll(r.Match)
	if len(r.Exclude) > 0 {
		s += ", exclude " + quoteAll(r.Exclude)
	}
	return s
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// nearest are the addresses of a's rule nearest to a's among those as deep
// (of instances and state entries), which a view offers (diag.Near); or,
// with none near, " The rule's instances: ..." when the rule has some.
func (m misses) nearest(a ruleAddress) (near []string, instances string) {
	var candidates []string
	for _, k := range m.known {
		parts, err := config.ParsePartialAddress(k)
		if err != nil || len(parts) < len(a.parts) {
			continue
		}
		if label, _, _ := config.SplitInstance(parts[1]); label != a.rule.Label {
			continue
		}
		if c := strings.Join(parts[:len(a.parts)], "."); !slices.Contains(candidates, c) {
			candidates = append(candidates, c)
		}
	}
	slices.Sort(candidates)
	if near := nearest.Names(a.address, candidates); len(near) > 0 || len(candidates) == 0 {
		return near, ""
	}
	return nil, fmt.Sprintf(" The rule's instances: %s.", english.FirstFew(candidates, 5))
}

// checkRuleTargets is CheckRuleTargets of every read project of cfg (before
// its rules are expanded): false when one refuses, and the plan stops.
func (pl *planner) checkRuleTargets(cfg *config.Config, live *Live, s Scope) bool {
	if s.Destroy {
		return true
	}
	ok := true
	for _, p := range cfg.Projects {
		if lp := live.Projects[p.ID]; lp != nil && lp.Branches != nil {
			d := ruleTargets(p, lp.Branches, pl.st, s)
			ok = ok && !d.HasErrors()
			pl.diags = append(pl.diags, d...)
		}
	}
	return ok
}
