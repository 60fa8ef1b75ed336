package emulator

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
)

// settingsOf returns the raw "settings" object of an endpoint answer.
func settingsOf(t *testing.T, r reply) string {
	t.Helper()
	var out struct {
		Endpoint struct {
			Settings json.RawMessage `json:"settings"`
		} `json:"endpoint"`
	}
	r.decode(t, &out)
	return string(out.Endpoint.Settings)
}

// The Terraform provider sends back the "settings": {} it read with every update. On
// update, settings without pg_settings keep the Postgres settings as they are; on
// create, the service's "settings must not be nil" stands (docs/service.md, Requests and defaults).
func TestUpdateWithEmptySettingsKeepsThem(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	p := s.newProject("shop")
	pid, primary := p.Project.ID, p.Endpoints[0].ID

	r := s.patchEndpoint(pid, primary, map[string]any{"settings": map[string]any{}, "suspend_timeout_seconds": 600}).want(t, 200)
	if got := settingsOf(t, r); got != "{}" {
		t.Errorf(`PATCH of a compute without settings: settings %s, want {}`, got)
	}
	if got := s.endpoint(pid, primary).SuspendTimeoutSeconds; got != 600 {
		t.Errorf("suspend_timeout_seconds %d, want 600: the rest of the PATCH applies", got)
	}

	var ro api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": p.Branch.ID, "type": "read_only",
		"settings": map[string]any{"pg_settings": map[string]string{"work_mem": "64MB"}}}).want(t, 201).decode(t, &ro)
	s.patchEndpoint(pid, ro.Endpoint.ID, map[string]any{"settings": map[string]any{}, "autoscaling_limit_max_cu": 2}).want(t, 200)
	got := s.endpoint(pid, ro.Endpoint.ID)
	if got.Settings.PgSettings["work_mem"] != "64MB" || got.AutoscalingLimitMaxCU != 2 {
		t.Errorf("after PATCH settings {}: pg_settings %v max %g, want work_mem kept and max 2", got.Settings.PgSettings, got.AutoscalingLimitMaxCU)
	}
	// pg_settings sent replace the compute's; {} clears them.
	s.patchEndpoint(pid, ro.Endpoint.ID, map[string]any{"settings": map[string]any{"pg_settings": map[string]string{}}}).want(t, 200)
	if got := s.endpoint(pid, ro.Endpoint.ID).Settings.PgSettings; len(got) != 0 {
		t.Errorf("pg_settings {} left %v", got)
	}

	ge := wantCode(t, s.createEndpoint(pid, map[string]any{"branch_id": p.Branch.ID, "type": "read_only", "settings": map[string]any{}}), 400, codeBadRequest)
	if !strings.Contains(ge.Message, "settings must not be nil") {
		t.Errorf("create with settings {}: %q, want the service's settings must not be nil", ge.Message)
	}
}

// pgbouncer_settings and preload_libraries are kept and returned, at creation and on
// update, each part on its own.
func TestPgbouncerSettingsAndPreloadLibrariesAreKept(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	p := s.newProject("shop")
	pid := p.Project.ID
	s.settle()
	r := s.createEndpoint(pid, map[string]any{"branch_id": p.Branch.ID, "type": "read_only", "settings": map[string]any{
		"pg_settings":        map[string]string{"work_mem": "64MB"},
		"pgbouncer_settings": map[string]string{"default_pool_size": "20"},
		"preload_libraries":  map[string]any{"use_defaults": false, "enabled_libraries": []string{"timescaledb"}},
	}}).want(t, 201)
	const want = `{"pg_settings":{"work_mem":"64MB"},"pgbouncer_settings":{"default_pool_size":"20"},"preload_libraries":{"use_defaults":false,"enabled_libraries":["timescaledb"]}}`
	if got := settingsOf(t, r); got != want {
		t.Errorf("create answer settings\n%s\nwant\n%s", got, want)
	}
	var ro api.EndpointOperations
	r.decode(t, &ro)
	id := ro.Endpoint.ID
	s.settle()
	path := "/projects/" + pid + "/endpoints/" + id
	if got := settingsOf(t, s.call("GET", path, nil).want(t, 200)); got != want {
		t.Errorf("GET settings %s, want %s", got, want)
	}

	// A pooler setting changes nothing for running clients: no restart.
	var out api.EndpointOperations
	s.patchEndpoint(pid, id, map[string]any{"settings": map[string]any{"pgbouncer_settings": map[string]string{"default_pool_size": "40"}}}).want(t, 200).decode(t, &out)
	if out.Endpoint.PendingState != "" || out.Endpoint.Settings.PgSettings["work_mem"] != "64MB" ||
		out.Endpoint.Settings.PgbouncerSettings["default_pool_size"] != "40" || out.Endpoint.Settings.PreloadLibraries == nil {
		t.Errorf("PATCH pgbouncer_settings: pending %q settings %+v, want no restart, the new pool size and the rest kept", out.Endpoint.PendingState, out.Endpoint.Settings)
	}
	// New preload libraries need a Postgres restart.
	s.settle()
	out = api.EndpointOperations{}
	s.patchEndpoint(pid, id, map[string]any{"settings": map[string]any{"preload_libraries": map[string]any{"use_defaults": true}}}).want(t, 200).decode(t, &out)
	if pl := out.Endpoint.Settings.PreloadLibraries; out.Endpoint.PendingState != "active" || pl == nil || pl.UseDefaults == nil || !*pl.UseDefaults || len(pl.EnabledLibraries) != 0 {
		t.Errorf("PATCH preload_libraries: pending %q, libraries %+v; want a restart and use_defaults true alone", out.Endpoint.PendingState, pl)
	}

	// They survive a restart of the emulator through its world file.
	file := t.TempDir() + "/world.json"
	s.emu.opts.DataFile = file
	must(t, s.emu.save())
	s.emu.opts.DataFile = ""
	again, err := New(Options{DataFile: file, Clock: s.clock, APIKey: s.key, RatePerMinute: -1})
	must(t, err)
	again.opts.DataFile = ""
	p2 := again.w.project(pid)
	if ep := p2.endpoints[id]; ep.PgbouncerSettings["default_pool_size"] != "40" || ep.PreloadLibraries == nil || !*ep.PreloadLibraries.UseDefaults {
		t.Errorf("after reloading the world file: pgbouncer %v preload %+v", ep.PgbouncerSettings, ep.PreloadLibraries)
	}
}
