package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/internal/apiurl"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/sizing"
)

// decodeSettings reads the neonform block (at most one across all files) and fills
// the defaults. The tier it finds caps every compute size checked after it.
func (l *loader) decodeSettings(blocks []*hclsyntax.Block) {
	s := Settings{APIURL: DefaultAPIURL, AccountTier: sizing.Paid, StatePath: DefaultStatePath}
	defer func() {
		s.Variables = l.settingsVariables(blocks)
		l.cfg.Settings = s
		l.checkBudgetPrice(s.Budget)
	}()
	if len(blocks) == 0 {
		return
	}
	first := blocks[0]
	for _, dup := range blocks[1:] {
		l.errorf(dup.TypeRange, "Duplicate neonform block",
			"The neonform settings are already given at %s; merge the two blocks into one.", where(first.TypeRange))
	}
	s.DeclRange = first.DefRange()
	c, diags := bodyContent(first.Body, settingsSchema, "a neonform block")
	l.diags = append(l.diags, diags...)

	if a := c.Attributes["api_url"]; a != nil {
		if v, state := l.stringAttr(a, `a URL such as "https://console.neon.tech/api/v2", or "embedded"`); state == valid {
			if summary, detail, near := CheckAPIURL("api_url", v); summary != "" {
				// The line may hold a password or a token: named, not quoted.
				l.errorf(a.Expr.Range(), summary, "%s", detail).Extra = diag.Unquoted{Extra: near}
			} else {
				s.APIURL = v
			}
		}
	}
	if a := c.Attributes["org_id"]; a != nil {
		l.decodeOrgID(&s, a)
	}
	if a := c.Attributes["account_tier"]; a != nil {
		if v, state := l.stringAttr(a, tierWant); state == valid {
			if _, ok := sizing.PlanOf(sizing.Tier(v)); ok {
				s.AccountTier = sizing.Tier(v)
			} else {
				detail := fmt.Sprintf("account_tier is the account's plan: %s, not %q.", tierWant, v)
				withNear(l.errorf(a.Expr.Range(), "Invalid account tier", "%s", detail), nearMiss(len(detail), true, suggest(v, tierNames())))
			}
		}
	}
	if a := c.Attributes["price_per_cu_hour"]; a != nil {
		l.decodePrice(&s, a)
	}
	s.Budget = l.decodeBudget(c.Blocks, "The neonform block")
	if a := c.Attributes["state"]; a != nil {
		if v, state := l.stringAttr(a, `a file path such as "neonform.state.json"`); state == valid {
			if strings.TrimSpace(v) == "" {
				l.errorf(a.Expr.Range(), "Invalid state path",
					"state is the path of the state file, such as %q; omit it for that default.", DefaultStatePath)
			} else {
				s.StatePath = v
			}
		}
	}
}

// tierWant says the values of account_tier, in messages.
const tierWant = `"free", "launch", "scale", or "paid" (a paid plan not named: the service's own rules only)`

func tierNames() []string {
	names := make([]string, len(sizing.Tiers))
	for i, t := range sizing.Tiers {
		names[i] = string(t)
	}
	return names
}

// CheckAPIURL accepts "embedded", any https URL, and http only to this machine:
// the API key travels with every request and must not cross a network in clear.
// It returns a summary and detail when the URL is refused, and the near-miss
// of a misspelt "embedded" (its words made by internal/diag: near.In); name
// is where the URL came from, as the detail says it: "api_url" in the
// configuration, or the environment variable "NEON_API_URL" that overrides it.
func CheckAPIURL(name, s string) (summary, detail string, near diag.Near) {
	if s == EmbeddedAPIURL {
		return "", "", diag.Near{}
	}
	p := apiurl.Check(name, s)
	if p == nil {
		return "", "", diag.Near{}
	}
	if p.Summary == "Invalid API URL" {
		detail := p.Detail + " Or \"embedded\" for the built-in emulator."
		return p.Summary, detail, nearMiss(len(detail), true, suggest(s, []string{EmbeddedAPIURL}))
	}
	return p.Summary, p.Detail, diag.Near{}
}
