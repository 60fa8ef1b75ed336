package emulator

import (
	"net/http"

	"github.com/neonform/neonform/api"
)

// What a personal key's user sees of the account: the user, their organizations, and
// the projects others shared with them. neonform does not use these; the service's CLI
// calls the first two before most commands. An organization or project-scoped key has
// no user: the service answers 404 "not allowed for organization API keys" (the CLI
// looks for these words to tell an organization key).

func notForOrgKeys(c *call) error {
	if c.key.Kind == keyPersonal {
		return nil
	}
	return errorf(http.StatusNotFound, codeNotFound, "%s is not allowed for organization API keys: it answers for the user of a personal API key", c.route.name)
}

// authDetails is AuthDetailsResponse of the full service description: who the
// credentials act for. Only neonform's emulator answers it; the client never asks.
type authDetails struct {
	AccountID  string `json:"account_id"`
	AuthMethod string `json:"auth_method"`
}

// getAuthDetails answers GET /auth (getAuthDetails in the full service description,
// docs/service.md, Authentication and API keys): a personal key acts for its user
// (api_key_user), an organization or project-scoped key for its organization
// (api_key_org).
func (e *Emulator) getAuthDetails(c *call) (int, any, error) {
	if c.key.Kind == keyPersonal {
		return http.StatusOK, authDetails{AccountID: c.key.UserID, AuthMethod: "api_key_user"}, nil
	}
	return http.StatusOK, authDetails{AccountID: c.key.OrgID, AuthMethod: "api_key_org"}, nil
}

// getCurrentUser answers GET /users/me. Limits follow the user's plan (plans.go). A user
// with a personal account has a billing account; an org-only user has none, which is how
// the service's clients tell one (organizations.go).
func (e *Emulator) getCurrentUser(c *call) (int, any, error) {
	if err := notForOrgKeys(c); err != nil {
		return 0, nil, err
	}
	e.w.mu.RLock()
	u := e.w.users[c.key.UserID]
	e.w.mu.RUnlock()
	out := api.CurrentUserInfo{ID: u.ID, Email: u.Email, Login: u.Email, Name: u.Name, AuthAccounts: []api.UserAuthAccount{},
		Plan: subscription(u.Tier)}
	out.ProjectsLimit, out.BranchesLimit, out.MaxAutoscalingLimit = userLimits(u.Tier)
	if !u.OrgOnly {
		out.BillingAccount = billingAccountOf(u)
	}
	return http.StatusOK, out, nil
}

// listCurrentUserOrganizations answers GET /users/me/organizations: the organizations
// the user is a member of now, by id.
func (e *Emulator) listCurrentUserOrganizations(c *call) (int, any, error) {
	if err := notForOrgKeys(c); err != nil {
		return 0, nil, err
	}
	e.w.mu.RLock()
	defer e.w.mu.RUnlock()
	out := api.OrganizationsResponse{Organizations: []api.Organization{}}
	for _, id := range sortedKeys(e.w.orgs) {
		o := e.w.orgs[id]
		if o.Members[c.key.UserID] == "" {
			continue
		}
		out.Organizations = append(out.Organizations, organizationWire(o))
	}
	return http.StatusOK, out, nil
}

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
