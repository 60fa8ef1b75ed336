package command

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/nearest"
)

// nearMisses refuses the branch names the sandbox would create that are near misses
// of a branch it has ("mian" beside "main"): against the real account such a typo is
// "branch not found", so the sandbox must not quietly make it a branch. A name that
// differs from an existing one in its digits only (pr-3 beside pr-1) is a new branch,
// not a typo. A project the sandbox has not made yet will have its default branch,
// main.
func (s *sandbox) nearMisses(cfg *config.Config) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, p := range cfg.Projects {
		existing, err := s.emu.BranchNames(p.ID)
		if err != nil {
			existing = []string{"main"} // a project made on first use
		}
		have := map[string]bool{}
		for _, n := range existing {
			have[n] = true
		}
		for _, b := range p.Branches {
			if b.ID != "" || have[b.Name] {
				continue
			}
			var near []string
			for _, n := range nearest.Names(b.Name, existing) {
				if !digitsOnly(b.Name, n) {
					near = append(near, n)
				}
			}
			if len(near) == 0 {
				continue
			}
			r := b.NameRange
			if r.Filename == "" {
				r = b.DeclRange
			}
			diags = append(diags, diag.Diagnostic{Severity: diag.SeverityError, Summary: "Branch name close to an existing branch", Range: &r,
				Detail: fmt.Sprintf("The sandbox's project %s has no branch named %q, but has %s: did you mean %s? The sandbox creates the branches a configuration names, "+
					"and would create this one; against the real account the name would find no branch. Fix the name, or choose one that differs more for a new branch.",
					p.Label, b.Name, branchesNamed(near), english.Or(nearest.Quoted(near)))})
		}
	}
	return diags
}

// digitsOnly reports whether two names differ in their digits only.
func digitsOnly(a, b string) bool {
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return -1
			}
			return r
		}, s)
	}
	return strip(a) == strip(b)
}

// branchesNamed says which branches: the branch "main", the branches "dev" and "dev2".
func branchesNamed(names []string) string {
	if len(names) == 1 {
		return "the branch " + strconv.Quote(names[0])
	}
	return "the branches " + english.And(nearest.Quoted(names))
}
