package command

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/state"
)

// checkScope refuses a -target or -replace that names nothing in the
// configuration or the state (with the nearest name that does), a -replace
// of a compute that is not configured, and a -replace outside the -target
// computes: before any call to the service.
func checkScope(s diff.Scope, cfg *config.Config, st *state.State) error {
	if len(s.Targets) == 0 && len(s.Replace) == 0 {
		return nil
	}
	known := knownNames(cfg, st)
	for _, t := range s.Targets {
		covers := func(n string) bool { return diff.Covers(t, n) }
		parts, _ := config.ParsePartialAddress(t)
		kind := []string{"project", "branch", "compute"}[len(parts)-1]
		switch {
		case known.ruleInstance(t) || slices.ContainsFunc(known.ruleNames(), covers):
			// Of a branch rule: what it hits is known once the branches
			// are read (diff.CheckRuleTargets).
		case !slices.ContainsFunc(known.all, covers):
			return fmt.Errorf("-target %s: no %s of the configuration or the state has this address.%s",
				t, kind, didYouMean(t, known.ofDepth(len(parts))))
		case !known.anyCompute(covers):
			return fmt.Errorf("-target %s: the %s has no computes in the configuration or the state, so nothing would be planned for it. Add a compute block to it, or drop -target %s",
				t, kind, t)
		}
	}
	for _, r := range s.Replace {
		switch {
		case known.configured[r], known.ruleInstance(r): // a rule's instance: Build checks it, once the branches are read
		case known.inState[r]:
			return fmt.Errorf("-replace %s: the configuration no longer declares it, so nothing would take its place (a plan deletes it)", r)
		case known.rules[r]:
			p, b, c, _ := config.ParseAddress(r)
			return fmt.Errorf("-replace %s: a branch rule's compute has an instance on every branch the rule matches; -replace takes one: '%s'",
				r, config.AddressOf(p, config.InstanceLabel(b, "BRANCH"), c))
		default:
			instances := coveredBy(r, known.computes())
			if len(instances) > 0 {
				return fmt.Errorf("-replace %s: it has instances; -replace takes one: %s", r, english.FirstFew(instances, 5))
			}
			return fmt.Errorf("-replace %s: no compute of the configuration has this address.%s", r, didYouMean(r, known.computes()))
		}
		if len(s.Targets) > 0 && !slices.ContainsFunc(s.Targets, func(t string) bool { return diff.Covers(t, r) }) {
			return fmt.Errorf("-replace %s is not among the computes -target names (%s): a partial plan plans nothing else. Add -target %s",
				r, strings.Join(s.Targets, ", "), r)
		}
	}
	return nil
}

// names are the addresses a flag may name: every project, branch and
// compute of the configuration, and every compute of the state with its
// project and branch.
type names struct {
	all        []string
	configured map[string]bool // compute addresses
	inState    map[string]bool // compute addresses (a deposed entry's compute)
	// rules are the branch rules and their computes, without a key
	// (shop.previews, shop.previews.primary): their instances are the live
	// branches they match, known only once the branches are read.
	rules map[string]bool
}

func knownNames(cfg *config.Config, st *state.State) names {
	n := names{configured: map[string]bool{}, inState: map[string]bool{}, rules: map[string]bool{}}
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			n.all = append(n.all, s)
		}
	}
	for _, p := range cfg.Projects {
		add(p.Label)
		for _, b := range p.Branches {
			add(p.Label + "." + b.Label)
			for _, c := range b.Computes {
				add(c.Address)
				n.configured[c.Address] = true
			}
		}
		for _, r := range p.Rules {
			add(p.Label + "." + r.Label) // covers every instance
			n.rules[p.Label+"."+r.Label] = true
			for _, c := range r.Computes {
				add(config.AddressOf(p.Label, r.Label, c.Label))
				n.rules[config.AddressOf(p.Label, r.Label, c.Label)] = true
			}
		}
	}
	for _, addr := range st.Addresses() {
		if base, _, ok := state.Deposed(addr); ok {
			addr = base
		}
		p, b, _, err := config.ParseAddress(addr)
		if err != nil {
			continue
		}
		add(p)
		add(p + "." + b)
		add(addr)
		n.inState[addr] = true
	}
	slices.Sort(n.all)
	return n
}

// ofDepth is the names of so many parts: projects (1), branches (2), computes (3).
func (n names) ofDepth(parts int) []string {
	var out []string
	for _, s := range n.all {
		if p, err := config.ParsePartialAddress(s); err == nil && len(p) == parts {
			out = append(out, s)
		}
	}
	return out
}

func (n names) computes() []string { return n.ofDepth(3) }

// anyCompute reports whether some compute of the configuration or the
// state is one that covers reports.
func (n names) anyCompute(covers func(string) bool) bool {
	for _, m := range []map[string]bool{n.configured, n.inState} {
		for addr := range m {
			if covers(addr) {
				return true
			}
		}
	}
	return false
}

// ruleNames are the branch rules and their computes, without a key.
func (n names) ruleNames() []string { return slices.Sorted(maps.Keys(n.rules)) }

// coveredBy is the names that address covers without being one of them:
// the instances of a block with for_each.
func coveredBy(address string, list []string) []string {
	var out []string
	for _, s := range list {
		if s != address && diff.Covers(address, s) {
			out = append(out, s)
		}
	}
	return out
}

// didYouMean is " Did you mean X?" for the nearest name, or "".
func didYouMean(given string, list []string) string {
	if s := closest(given, list); s != "" {
		return fmt.Sprintf(" Did you mean %s?", s)
	}
	return ""
}

// scopeArgs are the flags that ask for a scope, for a suggested command.
func scopeArgs(s diff.Scope) []string {
	var out []string
	for _, t := range s.Targets {
		out = append(out, "-target", t)
	}
	for _, r := range s.Replace {
		out = append(out, "-replace", r)
	}
	if s.Destroy {
		out = append(out, "-destroy")
	}
	return out
}

// ruleInstance reports whether address names an instance of a branch rule,
// or a compute of one (shop.previews["preview/pr-12"].primary): whether that
// branch exists is known once the branches are read.
func (n names) ruleInstance(address string) bool {
	parts, err := config.ParsePartialAddress(address)
	if err != nil || len(parts) < 2 {
		return false
	}
	label, _, keyed := config.SplitInstance(parts[1])
	if !keyed {
		return false
	}
	parts[1] = label
	return n.rules[strings.Join(parts, ".")]
}
