package diff

import (
	"github.com/neonform/neonform/api"
)

// Live is what runs in the service, as read at plan time.
type Live struct {
	// Projects by project id.
	Projects map[string]*LiveProject
}

// LiveProject is the live endpoints of one project (all branches), and its
// branches when they were listed.
type LiveProject struct {
	ID string
	// Endpoints are what the plan records of them, in id order (RecordLive):
	// all the planner reads, and a third of the whole api.Endpoint each
	// (with 100,000 endpoints, 50 MB less while the plan is built).
	Endpoints []LiveEndpoint
	// Branches is nil when they were not listed: every branch block pins its
	// id, or finds its branch by name as the state records it (Known).
	Branches []api.Branch
	// Known are the ids of the branch blocks found by name, by block label,
	// as the state records them; used only when Branches is nil.
	Known map[string]string
	// Defaults are the project's compute defaults (default_endpoint_settings),
	// read only when its project block has a defaults block; nil otherwise.
	Defaults *api.DefaultEndpointSettings
}
