package state

import (
	"fmt"
	"strings"

	"github.com/neonform/neonform/internal/shellquote"
)

// ProjectMoveSummary is the summary of every refusal of ProjectMoveRefusal.
const ProjectMoveSummary = "Compute cannot change project"

// ProjectMove is state entries of one project about to take addresses
// under a project block (`state mv`, a moved block, a plan that finds an
// entry under a block of another project).
type ProjectMove struct {
	// From and To are the addresses asked for: a compute's, or a branch's
	// or a project's for every compute under it.
	From, To string
	// Entries are the state addresses that would move, and ProjectID the
	// project of their endpoints.
	Entries   []string
	ProjectID string
	// EndpointID is the endpoint of a move of one entry, said in the refusal.
	EndpointID string
	// ToLabel and ToProjectID are the project block To is in, and its id.
	ToLabel, ToProjectID string
}

// ProjectMoveRefusal is the one rule of entries of the state taking
// addresses in another project block: project ids, not labels, say which
// project an endpoint is in, so an entry may be recorded under any block of
// its own project (a project block renamed, with the same id), and never
// under another project's: the service has no call that moves an endpoint
// between projects (docs/service.md, "Resources").
//
// It returns "" when the move may be made; otherwise the refusal's detail.
// Its advice never deletes an endpoint: it names the two safe paths, and
// what each costs.
func ProjectMoveRefusal(m ProjectMove) string {
	if m.ProjectID == m.ToProjectID {
		return ""
	}
	quoted := make([]string, len(m.Entries))
	for i, a := range m.Entries {
		quoted[i] = shellquote.Word(a)
	}
	rm := "neonform state rm " + strings.Join(quoted, " ")
	there := fmt.Sprintf("%s is in project block %q, which is project %s", m.To, m.ToLabel, m.ToProjectID)
	if m.To == m.ToLabel {
		there = fmt.Sprintf("project block %q is project %s", m.ToLabel, m.ToProjectID)
	}
	if len(m.Entries) == 1 {
		return fmt.Sprintf("%s is endpoint %s of project %s, and %s. "+
			"The service cannot move an endpoint to another project, so %s cannot be recorded there. "+
			"Two paths keep the endpoint: keep the old label (a project block with id = %q, under which %s stays managed; nothing changes in the service), "+
			"or stop managing it with `%s` (the endpoint keeps running, unmanaged, and is billed while it is active; "+
			"the next plan adopts a matching endpoint of project %s for %s, or creates a new one, with a new host for its clients).",
			m.Entries[0], m.EndpointID, m.ProjectID, there,
			m.Entries[0], m.ProjectID, m.Entries[0], rm, m.ToProjectID, m.To)
	}
	return fmt.Sprintf("The %d computes under %s are endpoints of project %s, and %s. "+
		"The service cannot move an endpoint to another project, so they cannot be recorded there. "+
		"Two paths keep the endpoints: keep the old label (a project block with id = %q, under which they stay managed; nothing changes in the service), "+
		"or stop managing them with `%s` (the endpoints keep running, unmanaged, and are billed while they are active; "+
		"the next plan adopts matching endpoints of project %s for the computes under %s, or creates new ones, with new hosts for their clients).",
		len(m.Entries), m.From, m.ProjectID, there,
		m.ProjectID, rm, m.ToProjectID, m.To)
}
