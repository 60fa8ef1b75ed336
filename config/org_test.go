package config_test

import (
	"strings"
	"testing"
)

// org_id takes an organization id; anything else is refused at its value, saying
// where to find the id.
func TestOrgID(t *testing.T) {
	cfg, errs := loadSettings(t, "neonform {\n  org_id = \"org-morning-bread-81040908\"\n}\n")
	if errs != "" || cfg.Settings.OrgID != "org-morning-bread-81040908" {
		t.Fatalf("org_id: %q, diagnostics %s", cfg.Settings.OrgID, errs)
	}
	cfg, _ = loadSettings(t, "neonform {\n}\n")
	if cfg.Settings.OrgID != "" {
		t.Errorf("no org_id: %q", cfg.Settings.OrgID)
	}
	for _, bad := range []string{`"Org_Bad"`, `""`, `"org/../x"`} {
		cfg, errs := loadSettings(t, "neonform {\n  org_id = "+bad+"\n}\n")
		if cfg != nil && cfg.Settings.OrgID != "" || !strings.Contains(errs, "main.hcl:2,12") {
			t.Errorf("org_id = %s: kept %q, diagnostics %s", bad, cfg.Settings.OrgID, errs)
		}
		if !strings.Contains(errs, "settings page") {
			t.Errorf("org_id = %s: %s does not say where to find the id", bad, errs)
		}
	}
}
