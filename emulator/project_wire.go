package emulator

import (
	"time"

	"github.com/neonform/neonform/api"
)

// The project answers carry what api.Project and api.ProjectListItem hold (what
// neonform's client reads) and the project's default_endpoint_settings, which the
// OpenAPI description has in both and the client does not read.

type projectWire struct {
	api.Project
	DefaultEndpointSettings *api.DefaultEndpointSettings `json:"default_endpoint_settings,omitempty"`
}

type projectListItemWire struct {
	api.ProjectListItem
	DefaultEndpointSettings *api.DefaultEndpointSettings `json:"default_endpoint_settings,omitempty"`
}

// projectResponse is ProjectResponse.
type projectResponse struct {
	Project projectWire `json:"project"`
}

// projectOperations is ProjectResponse with OperationsResponse: the answer of an update.
type projectOperations struct {
	Project    projectWire     `json:"project"`
	Operations []api.Operation `json:"operations"`
}

// projectsResponse is the answer of the list of projects: ProjectsResponse,
// PaginationResponse and the applications and integrations maps the description
// requires (empty: the emulator has neither).
type projectsResponse struct {
	Projects     []projectListItemWire `json:"projects"`
	Pagination   *api.Pagination       `json:"pagination,omitempty"`
	Applications map[string]any        `json:"applications"`
	Integrations map[string]any        `json:"integrations"`
}

// projectCreated is the answer of POST /projects: the project, its default branch
// with its compute, the operations that start them, and the branch's roles and
// databases with their connection URIs.
type projectCreated struct {
	Project        projectWire             `json:"project"`
	Branch         api.Branch              `json:"branch"`
	Endpoints      []api.Endpoint          `json:"endpoints"`
	Operations     []api.Operation         `json:"operations"`
	ConnectionURIs []api.ConnectionDetails `json:"connection_uris"`
	Roles          []api.Role              `json:"roles"`
	Databases      []api.Database          `json:"databases"`
}

// answer renders the project as GET /projects/{id} returns it. Caller holds p.mu.
func (p *project) answer(now time.Time, owner *user) projectWire {
	return projectWire{Project: p.wire(now, owner), DefaultEndpointSettings: p.Defaults}
}

// listAnswer renders the project as the list of projects returns it. Caller holds p.mu.
func (p *project) listAnswer() projectListItemWire {
	return projectListItemWire{ProjectListItem: p.listItem(), DefaultEndpointSettings: p.Defaults}
}
