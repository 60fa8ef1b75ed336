package emulator

import (
	"net/http"
	"strings"

	"github.com/neonform/neonform/api"
)

// Organizations as the service has them (docs/service.md, Organizations):
//   - A user made today has no personal account, only organizations (user.OrgOnly):
//     the service answers a list or a create of projects from such a user that names
//     no organization with 400 msgOrgIDRequired. Its GET /users/me has no
//     billing_account, which is how the service's clients tell such a user.
//   - A user with a personal account lists and creates personal projects without
//     org_id, and an organization's with it.
//   - GET /organizations/{org_id} answers a member's personal key and the
//     organization's own keys, project-scoped ones included: GET /auth names the
//     organization as their account (api_key_org, the only method the description has
//     for them), and the service's MCP server reads it at startup. Reading it is not
//     acting on it (*not documented*: an inference from those two).

// msgOrgIDRequired is the service's message, word for word, to an org-only user's
// project list or create without org_id.
const msgOrgIDRequired = "org_id is required, you can find it on your organization settings page"

// requireOrgID refuses a project list or create that names no organization from a
// personal key whose user has no personal account.
func (e *Emulator) requireOrgID(c *call, orgID string) error {
	if orgID != "" || c.key.Kind != keyPersonal {
		return nil
	}
	e.w.mu.RLock()
	u := e.w.users[c.key.UserID]
	e.w.mu.RUnlock()
	if u != nil && u.OrgOnly {
		return badRequest("%s", msgOrgIDRequired)
	}
	return nil
}

// listScope checks what a key may list: a project-scoped key no list at all (it
// reaches its one project, by id); an organization key its own organization's
// projects; a personal key those of an organization its user is a member of, or,
// without org_id, its personal projects (and its organizations'), unless the user has
// no personal account.
func (e *Emulator) listScope(c *call, orgID string) error {
	switch c.key.Kind {
	case keyProject:
		return forbidden("a project-scoped API key cannot list projects: it reaches project %s only; read it with GET /projects/%s", c.key.ProjectID, c.key.ProjectID)
	case keyOrganization:
		if orgID != "" && orgID != c.key.OrgID {
			return forbidden("this organization API key belongs to %s and cannot list the projects of %s", c.key.OrgID, orgID)
		}
		return nil
	}
	if orgID != "" {
		e.w.mu.RLock()
		o := e.w.orgs[orgID]
		member := o != nil && o.Members[c.key.UserID] != ""
		e.w.mu.RUnlock()
		if !member {
			return errorf(http.StatusNotFound, codeNotFound, "organization %s not found among the organizations of this key's user", orgID)
		}
	}
	return e.requireOrgID(c, orgID)
}

// billingAccountOf is the personal account of a user who has one.
func billingAccountOf(u *user) *api.BillingAccount {
	return &api.BillingAccount{State: "active", PaymentSource: api.PaymentSource{Type: "card"},
		SubscriptionType: subscription(u.Tier), PaymentMethod: "stripe", Name: u.Name, Email: u.Email}
}

// getOrganization answers GET /organizations/{org_id}.
func (e *Emulator) getOrganization(c *call) (int, any, error) {
	id := c.param("org_id")
	e.w.mu.RLock()
	o := e.w.orgs[id]
	visible := o != nil && ((c.key.Kind != keyPersonal && c.key.OrgID == id) || (c.key.Kind == keyPersonal && o.Members[c.key.UserID] != ""))
	e.w.mu.RUnlock()
	if !visible {
		return 0, nil, errorf(http.StatusNotFound, codeNotFound, "organization %s not found among the organizations this key may see", id)
	}
	return http.StatusOK, organizationWire(o), nil
}

// organizationWire is an organization as the API answers it.
func organizationWire(o *org) api.Organization {
	return api.Organization{ID: o.ID, Name: o.Name, Handle: o.ID, Plan: subscription(o.Tier),
		CreatedAt: o.CreatedAt, UpdatedAt: o.CreatedAt, ManagedBy: "console"}
}

// branchesCount is BranchesCountResponse.
type branchesCount struct {
	Count int `json:"count"`
}

// countBranches answers GET /projects/{project_id}/branches/count (countProjectBranches):
// the project's branches, or those whose name contains search.
func (e *Emulator) countBranches(c *call) (int, any, error) {
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	search := c.r.URL.Query().Get("search")
	p.mu.RLock()
	defer p.mu.RUnlock()
	n := 0
	for _, b := range p.branches {
		if strings.Contains(b.Name, search) {
			n++
		}
	}
	return http.StatusOK, branchesCount{Count: n}, nil
}
