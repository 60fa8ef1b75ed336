package state

import (
	"fmt"

	"github.com/neonform/neonform/internal/shellquote"
)

// ProjectMoveSummary is the summary of every refusal of ProjectMoveRefusal.
const ProjectMoveSummary = "Compute cannot change project"

// ProjectMoveRefusal is the one rule of an entry of the state taking an
// address in another project block (`state mv`, a moved block, a plan that
// finds an entry under a block of another project): project ids, not
// labels, say which project an endpoint is in, so an entry may be recorded
// under any block of its own project (a project block renamed, with the
// same id), and never under another project's: the service has no call that
// moves an endpoint between projects (docs/service.md, "Resources").
//
// It returns "" when c, recorded at from, may be recorded at to, whose
// project block toLabel names the project toProjectID; otherwise the
// refusal's detail. Its advice never deletes the endpoint: it names the two
// safe paths, and what each costs.
func ProjectMoveRefusal(from, to string, c *Compute, toLabel, toProjectID string) string {
	if c.ProjectID == toProjectID {
		return ""
	}
	return fmt.Sprintf("%s is endpoint %s of project %s, and %s is in project block %q, which is project %s. "+
		"The service cannot move an endpoint to another project, so %s cannot be recorded there. "+
		"Two paths keep the endpoint: keep the old label (a project block with id = %q, under which %s stays managed; nothing changes in the service), "+
		"or stop managing it with `neonform state rm %s` (the endpoint keeps running, unmanaged, and is billed while it is active; "+
		"the next plan adopts a matching endpoint of project %s for %s, or creates a new one, with a new host for its clients).",
		from, c.EndpointID, c.ProjectID, to, toLabel, toProjectID,
		from, c.ProjectID, from,
		shellquote.Word(from), toProjectID, to)
}
