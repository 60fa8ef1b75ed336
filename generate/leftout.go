package generate

import (
	"fmt"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/diag"
)

// The endpoints generate writes no block for are warnings (internal/diag):
// the run goes on without them, they stay as they are, and plan lists them
// as unmanaged. Their subject is the endpoint's id, as the console shows it:
// a left-out endpoint has no address in the configuration.

// where is the endpoint ep of project label on branch b, in words; the
// diagnostic's subject says its id.
func where(label string, ep *api.Endpoint, b *api.Branch) string {
	return fmt.Sprintf("The %s on branch %q of project %s", kindOf(ep.Type), b.Name, label)
}

func leftOut(ep *api.Endpoint, summary, detail string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.SeverityWarning, Summary: summary, Detail: detail, Address: ep.ID}
}

func disabledLeftOut(label string, ep *api.Endpoint, b *api.Branch) diag.Diagnostic {
	return leftOut(ep, "Disabled compute left out", fmt.Sprintf(
		"%s is disabled, and generate wrote no block for it. To manage it, add a compute block with disabled = true on branch %q and import it.",
		where(label, ep, b), b.Name))
}

// ConfiguredLeftOut is project p, which -all found and the configuration
// has already, as project label: generate writes nothing of it. Its subject
// is the project's address.
func ConfiguredLeftOut(p *Project, label string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.SeverityWarning, Summary: "Configured project left out", Address: label, Detail: fmt.Sprintf(
		"Project %q (%s) is already configured, as project %q, and generate writes only the projects a configuration does not have. "+
			"To manage more of its computes, add their blocks to that project and import them.",
		p.Name, p.ID, label)}
}

func branchGoneLeftOut(label string, ep *api.Endpoint) diag.Diagnostic {
	return leftOut(ep, "Endpoint of a branch being deleted left out", fmt.Sprintf(
		"The %s of project %s is on branch %s, which is not among the project's branches: it is being deleted, and the endpoint with it. generate wrote no block for it.",
		kindOf(ep.Type), label, ep.BranchID))
}

// sameNameLeftOut is an endpoint that has the name of another on its branch
// (kept): a configuration declares one compute
// of a name on a branch (docs/configuration.md, Reference), so one of them
// can be managed until the other is renamed.
func sameNameLeftOut(label string, ep, kept *api.Endpoint, b *api.Branch) diag.Diagnostic {
	return leftOut(ep, "Endpoint name used twice on one branch", fmt.Sprintf(
		"%s is named %q, as endpoint %s on the same branch is, and a configuration cannot declare two computes of one name on a branch: generate wrote a block for that one and none for this one. "+
			"To manage it too, give it a name of its own in the console (or with the API), then add its compute block and import it.",
		where(label, ep, b), ep.Name, kept.ID))
}

// refusedLeftOut is an endpoint whose block the configuration would refuse
// (why): the service keeps a value neonform does not accept.
func refusedLeftOut(label string, ep *api.Endpoint, b *api.Branch, why *diag.Diagnostic) diag.Diagnostic {
	return leftOut(ep, why.Summary, fmt.Sprintf(
		"%s has a value its compute block would be refused for, so generate wrote none: %s",
		where(label, ep, b), why.Detail))
}
