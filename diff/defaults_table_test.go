package diff

import (
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/managed"
)

// The attribute table says which attributes a project's defaults have and
// where: every project default (managed.Attribute.ProjectDefault) goes into
// the update of a project's defaults and is read back from the project, and
// no other attribute does; a project without defaults of its own gives each
// the attribute's default. An entry whose ProjectDefault is set without its
// accessors to the project's defaults, or the reverse, fails here.
func TestProjectDefaultsAreTheTables(t *testing.T) {
	v := Values{Type: api.EndpointTypeReadOnly, BranchID: "br-x", Applied: managed.Applied{Name: "x", MinCU: 0.5, MaxCU: 3,
		SuspendTimeoutSeconds: 600, PgSettings: map[string]string{"jit": "off"}, Disabled: true}}
	req := defaultsRequest(v)
	back := defaultsValues(req.Project.DefaultEndpointSettings.Settings())
	lost := map[string]bool{}
	for _, d := range Differences(v, back) {
		lost[managed.Named(d.Name).Name] = true
	}
	for _, a := range managed.All {
		switch {
		case a.ProjectDefault && lost[a.Name]:
			t.Errorf("%s is a project default, but a project's defaults do not carry it (its project and sent accessors)", a.Name)
		case !a.ProjectDefault && !lost[a.Name]:
			t.Errorf("%s is not a project default, but a project's defaults carry it", a.Name)
		}
	}
	for _, a := range defaultsValues(nil).every() {
		if managed.Named(a.Name).ProjectDefault && !AtDefault(a.Name, a.After) {
			t.Errorf("%s: a project without defaults gives %v, not the attribute's default", a.Name, a.After)
		}
	}
	if got := req.Project.DefaultEndpointSettings.PgSettings; got == nil {
		t.Errorf("no settings are sent as null, want {} (the service keeps what an update leaves out)")
	}
	if got := defaultsRequest(Values{}).Project.DefaultEndpointSettings.PgSettings; got == nil || len(got) != 0 {
		t.Errorf("no settings are sent as %#v, want {}", got)
	}
}
