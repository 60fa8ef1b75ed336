package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/sizing"
)

// checkActiveComputes warns when a project's configuration could keep more computes
// active at once than the service allows in a project (sizing.MaxActiveComputes):
// past it, the computes of other branches stay suspended and refuse connections.
// Only what the files say is counted: each branch block's computes (every instance
// of a for_each), and each branches rule's computes once, though a rule gets one
// for every live branch it matches, which only the service knows. Which branch is
// the default, whose compute is exempt, is the service's to say too.
func (l *loader) checkActiveComputes(p *Project) {
	var addrs []string
	for _, br := range p.Branches {
		for _, c := range br.Computes {
			if c.AlwaysActive() {
				addrs = append(addrs, c.Address)
			}
		}
	}
	rules := 0
	for _, r := range p.Rules {
		for _, c := range r.Computes {
			if c.AlwaysActive() {
				addrs = append(addrs, c.Address)
				rules++
			}
		}
	}
	if len(addrs) <= sizing.MaxActiveComputes {
		return
	}
	list := english.FirstFew(addrs, 5)
	counted := ""
	if rules > 0 {
		counted = fmt.Sprintf(" %s counted once, though a rule has one on every branch it matches, so there may be more.",
			english.Plural(rules, "compute of a branches rule is", "computes of branches rules are"))
	}
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "More computes always active than a project allows",
		Detail: fmt.Sprintf("Project %s has %d computes that never suspend (suspend_timeout = \"never\", or larger than 16 CU): %s. The service keeps at most %d computes of a project active at once, not counting the default branch's; past that, computes on other branches stay suspended and refuse connections.%s Which branch is the default only the service knows. Let some suspend (remove suspend_timeout = \"never\"), disable the ones not needed, or ask Neon's support for a higher limit.",
			p.Label, len(addrs), list, sizing.MaxActiveComputes, counted),
		Subject: p.DeclRange.Ptr(),
	})
}
