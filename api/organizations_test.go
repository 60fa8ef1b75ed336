package api_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// A client with an organization sends it with the calls the service scopes by
// organization: the list of projects and their creation. Against a user who
// belongs to organizations only, a client without one is refused in the
// service's words.
func TestOrganizationScopedCalls(t *testing.T) {
	const org = "org-morning-bread-81040908"
	file := filepath.Join(t.TempDir(), "world.json")
	must(t, os.WriteFile(file, []byte(`{"format_version": 1,
	  "users": [{"id": "u-grace", "name": "Grace", "org_only": true}],
	  "organizations": [{"id": "`+org+`", "name": "Engines", "members": [{"user_id": "u-grace", "role": "admin"}]}],
	  "projects": [{"id": "hidden-river-50598307", "org_id": "`+org+`", "owner_id": "u-grace", "branches": [{"id": "br-main-a5000001", "name": "main", "default": true}]}]}`), 0o600))
	ctx := context.Background()

	s := newService(t, emulator.Options{DataFile: file, RatePerMinute: -1}, func(o *api.Options) { o.OrgID = org }, nil)
	projects, err := s.client.ListProjects(ctx)
	if err != nil || len(projects) != 1 || projects[0].ID != "hidden-river-50598307" {
		t.Fatalf("ListProjects with org_id: %v, %v", projects, err)
	}
	created, err := s.client.CreateProject(ctx, api.ProjectCreate{Name: "new"})
	if err != nil || created.Project.OrgID != org {
		t.Fatalf("CreateProject with org_id: %+v, %v", created, err)
	}
	plain, _ := newCheckedClient(t, s.url, func(o *api.Options) { o.APIKey = s.emu.APIKey() }, true)
	for name, call := range map[string]func() error{
		"ListProjects":  func() error { _, err := plain.ListProjects(ctx); return err },
		"CreateProject": func() error { _, err := plain.CreateProject(ctx, api.ProjectCreate{Name: "x"}); return err },
	} {
		var apiErr *api.Error
		if err := call(); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || !strings.Contains(apiErr.Message, "org_id is required") {
			t.Errorf("%s without org_id: %v, want the service's 400", name, err)
		}
	}

	if _, err := api.New(api.Options{APIKey: "napi_x", OrgID: "Org/../x"}); err == nil || !strings.Contains(err.Error(), "organization id") {
		t.Errorf("a malformed organization id: %v", err)
	}
}
