package emulator

import (
	"net/http"

	"github.com/neonform/neonform/api"
)

// listSharedProjects answers GET /projects/shared: the projects other accounts shared
// with this one. The emulator has no sharing, so the list is always empty, in the
// documented shape (ProjectsResponse with its pagination); the query is still checked
// as the list of projects checks it.
func (e *Emulator) listSharedProjects(c *call) (int, any, error) {
	if _, err := queryLimit(c, defaultProjectsLimit, maxProjectsLimit); err != nil {
		return 0, nil, err
	}
	if err := checkTimeoutParam(c); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, sharedProjects{Projects: []api.ProjectListItem{}}, nil
}

// sharedProjects is the answer of GET /projects/shared: ProjectsResponse and
// PaginationResponse, without the applications and integrations maps of the list of
// projects (the description of this call does not have them).
type sharedProjects struct {
	Projects []api.ProjectListItem `json:"projects"`
}
