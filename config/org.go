package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The organization a run acts in (docs/configuration.md, org_id): the service scopes
// the list and the creation of projects by organization, and answers an account that
// belongs to organizations only with 400 "org_id is required" when a call leaves it
// out (docs/service.md, Organizations).

// OrgIDWhere says where to find an organization's id, for messages that ask for one.
const OrgIDWhere = "the organization's settings page in the console shows its id (org-...), and so does GET /users/me/organizations with a personal API key"

// CheckOrgID checks an organization id; name is where it came from, as the detail
// says it: "org_id" in the configuration, or "NEON_ORG_ID" that overrides it.
func CheckOrgID(name, s string) (summary, detail string) {
	if projectIDPattern.MatchString(s) {
		return "", ""
	}
	return "Invalid organization id", fmt.Sprintf("%s must be an organization id such as \"org-morning-bread-81040908\": 1 to 60 lowercase letters, digits and dashes; %s.", name, OrgIDWhere)
}

func (l *loader) decodeOrgID(s *Settings, a *hclsyntax.Attribute) {
	v, state := l.stringAttr(a, `an organization id such as "org-morning-bread-81040908"`)
	if state != valid {
		return
	}
	if summary, detail := CheckOrgID("org_id", v); summary != "" {
		l.errorf(a.Expr.Range(), summary, "%s", detail)
		return
	}
	s.OrgID = v
}
