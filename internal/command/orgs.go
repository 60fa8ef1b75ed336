package command

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/textsafe"
)

// The organization of a run (docs/configuration.md, org_id): NEON_ORG_ID overrides
// org_id, as NEON_API_URL overrides api_url. The service scopes the list and the
// creation of projects by organization, and refuses both without one from an account
// that belongs to organizations only (docs/service.md, Organizations).

// orgIDOf is the organization a configuration acts in, "" for none.
func orgIDOf(cfg *config.Config, env environment) (string, error) {
	if v := env.get("NEON_ORG_ID"); v != "" {
		// org_id was checked with the configuration, where an error points at the
		// file; the environment's is checked here, and the error says so.
		if summary, detail := config.CheckOrgID("NEON_ORG_ID", v); summary != "" {
			return "", fmt.Errorf("%s: NEON_ORG_ID, set in the environment, overrides org_id in the configuration. %s", summary, detail)
		}
		return v, nil
	}
	return cfg.Settings.OrgID, nil
}

// msgOrgIDRequired is what the service says, in part, to an account of organizations
// only that lists or creates projects without org_id.
const msgOrgIDRequired = "org_id is required"

// explainProjectList turns the service's refusal to list projects into what to do:
// the organization to name, or the project to name instead when the key cannot list.
// Other errors are returned as they are.
func explainProjectList(ctx context.Context, conn *connection, err error) error {
	var apiErr *api.Error
	if !errors.As(err, &apiErr) {
		return err
	}
	switch {
	case apiErr.StatusCode == http.StatusBadRequest && strings.Contains(apiErr.Message, msgOrgIDRequired):
		return fmt.Errorf("%w.\nThe API key's account belongs to organizations only, so the service lists the projects of one organization at a time. "+
			"Set org_id = \"org-...\" in the neonform block, or NEON_ORG_ID=org-... in the environment: %s.%s",
			err, config.OrgIDWhere, orgChoices(ctx, conn))
	case apiErr.StatusCode == http.StatusForbidden && conn.orgID != "":
		return fmt.Errorf("%w.\nThe API key cannot list the projects of organization %s (org_id, or NEON_ORG_ID): an organization API key lists only its own organization's projects, and a project-scoped key none. "+
			"Use a key of that organization, or a personal key of one of its members, or set org_id to the key's organization", err, conn.orgID)
	case apiErr.StatusCode == http.StatusForbidden:
		return fmt.Errorf("%w.\nThe API key cannot list projects: a project-scoped key reaches one project only. Name that project instead of -all: neonform generate -project <project id> DIR "+
			"(the console shows the id in the project's settings)", err)
	case apiErr.StatusCode == http.StatusNotFound && conn.orgID != "":
		return fmt.Errorf("%w.\nThe API key's user is not a member of organization %s (org_id, or NEON_ORG_ID): check the id (%s), or use a key of that organization.%s",
			err, conn.orgID, config.OrgIDWhere, orgChoices(ctx, conn))
	}
	return err
}

// orgChoices lists the organizations of a personal key's user, as a sentence to
// append; "" when the key cannot tell (an organization or project-scoped key), or
// the call fails: the advice stands without it.
func orgChoices(ctx context.Context, conn *connection) string {
	orgs, err := conn.client.ListMyOrganizations(ctx)
	if err != nil || len(orgs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" The key's user is a member of:")
	for _, o := range orgs {
		fmt.Fprintf(&b, "\n  org_id = %q  # %s", o.ID, textsafe.Terminal(o.Name))
	}
	return b.String()
}
