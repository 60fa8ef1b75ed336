package state

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/diag"
)

func TestNewStatesHaveDistinctLineages(t *testing.T) {
	a, b := New(), New()
	if a.Lineage == b.Lineage || !isUUIDv4(a.Lineage) || !isUUIDv4(b.Lineage) {
		t.Errorf("lineages %q and %q: want two distinct v4 UUIDs", a.Lineage, b.Lineage)
	}
	if a.Serial != 0 || a.FormatVersion != FormatVersion || a.Computes == nil {
		t.Errorf("New() = %+v", a)
	}
}

func TestAddressesAreSorted(t *testing.T) {
	s := sampleState()
	s.Computes["a.z.z"] = &Compute{EndpointID: "ep-a", Type: api.EndpointTypeReadOnly}
	want := []string{"a.z.z", "shop.dev.reporting", "shop.main.primary"}
	if got := s.Addresses(); !slices.Equal(got, want) {
		t.Errorf("Addresses() = %v, want %v", got, want)
	}
}

func TestByEndpoint(t *testing.T) {
	s := sampleState()
	if addr, ok := s.ByEndpoint("ep-quiet-lake-a1b2c3d4"); !ok || addr != "shop.dev.reporting" {
		t.Errorf("ByEndpoint(reporting's id) = %q, %v", addr, ok)
	}
	if addr, ok := s.ByEndpoint("ep-unknown"); ok {
		t.Errorf("ByEndpoint(unknown) = %q, true", addr)
	}
}

func TestCloneIsDeep(t *testing.T) {
	s := sampleState()
	c := s.Clone()
	if diff := cmp.Diff(s, c); diff != "" {
		t.Fatalf("clone differs:\n%s", diff)
	}
	c.Serial = 9
	c.Computes["shop.main.primary"].Applied.MaxCU = 16
	c.Computes["shop.main.primary"].Applied.PgSettings["work_mem"] = "1GB"
	delete(c.Computes, "shop.dev.reporting")
	p := s.Computes["shop.main.primary"]
	if s.Serial != 0 || p.Applied.MaxCU != 4 || p.Applied.PgSettings["work_mem"] != "64MB" || len(s.Computes) != 2 {
		t.Errorf("changing the clone changed the original: %+v %+v", s, p.Applied)
	}
}

func TestMove(t *testing.T) {
	s := sampleState()
	ep := s.Computes["shop.dev.reporting"].EndpointID
	if err := s.Move("shop.dev.reporting", "shop.main.reporting"); err != nil {
		t.Fatal(err)
	}
	if addr, _ := s.ByEndpoint(ep); addr != "shop.main.reporting" {
		t.Errorf("after Move the endpoint is at %q", addr)
	}
	if err := s.Move("shop.nope.x", "shop.main.y"); err == nil || !strings.Contains(err.Error(), "shop.nope.x") {
		t.Errorf("Move of a missing address = %v", err)
	}
	if err := s.Move("shop.main.reporting", "shop.main.primary"); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("Move onto a taken address = %v", err)
	}
	if _, ok := s.Computes["shop.main.reporting"]; !ok {
		t.Error("a refused Move removed the source")
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]struct {
		edit func(*State)
		want string
	}{
		"no lineage":    {func(s *State) { s.Lineage = "" }, "lineage"},
		"nil compute":   {func(s *State) { s.Computes["a.b.c"] = nil }, "a.b.c"},
		"no endpoint":   {func(s *State) { s.Computes["shop.main.primary"].EndpointID = "" }, "endpoint_id"},
		"bad type":      {func(s *State) { s.Computes["shop.main.primary"].Type = "primary" }, `"primary"`},
		"empty address": {func(s *State) { s.Computes[""] = &Compute{EndpointID: "ep-z", Type: api.EndpointTypeReadOnly} }, "empty address"},
	}
	if err := sampleState().Validate(); err != nil {
		t.Fatalf("valid state: %v", err)
	}
	for name, tc := range cases {
		s := sampleState()
		tc.edit(s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error mentioning %s", name, err, tc.want)
		}
	}
}

func TestDeposedAddressesOfKeyedComputes(t *testing.T) {
	for _, addr := range []string{"shop.main.primary", `shop.main.reports["eu"]`, `shop.main.reports["x[deposed:y"]`, `t["a]"].main.primary`} {
		d := DeposedAddress(addr, "ep-odd-1234")
		base, id, ok := Deposed(d)
		if !ok || base != addr || id != "ep-odd-1234" {
			t.Errorf("Deposed(%q) = %q, %q, %v; want %q, ep-odd-1234", d, base, id, ok, addr)
		}
		if _, _, ok := Deposed(addr); ok {
			t.Errorf("Deposed(%q) says deposed; it is a compute's own address", addr)
		}
	}
}

// Which values are sensitive is kept through the file; an entry without any
// writes no "sensitive" (so a state without sensitive variables changes
// only in its format_version), and a format-2 state, which has none, reads.
func TestSensitiveIsKeptAndOptional(t *testing.T) {
	s := New()
	s.Computes["shop.main.primary"] = &Compute{EndpointID: "ep-a", ProjectID: "p", BranchID: "br", Type: "read_write",
		Applied: Attributes{PgSettings: map[string]string{"work_mem": "TOPSECRET"}}, Sensitive: []string{"pg_settings"},
		SensitiveFrom: map[string][]string{"pg_settings": {"db_tuning"}}}
	s.Computes["shop.main.reports"] = &Compute{EndpointID: "ep-b", ProjectID: "p", BranchID: "br", Type: "read_only"}
	data, err := encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"sensitive"`); n != 1 {
		t.Errorf("%d entries say which values are sensitive, want 1:\n%s", n, data)
	}
	back, err := decode(context.Background(), data, "test", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Computes["shop.main.primary"].Sensitive; !slices.Equal(got, []string{"pg_settings"}) {
		t.Errorf("read back sensitive %q", got)
	}
	if got := back.Computes["shop.main.primary"].SensitiveFrom["pg_settings"]; !slices.Equal(got, []string{"db_tuning"}) {
		t.Errorf("read back sensitive_from %q", got)
	}
	if c := s.Clone(); &c.Computes["shop.main.primary"].Sensitive[0] == &s.Computes["shop.main.primary"].Sensitive[0] ||
		&c.Computes["shop.main.primary"].SensitiveFrom["pg_settings"][0] == &s.Computes["shop.main.primary"].SensitiveFrom["pg_settings"][0] {
		t.Error("a clone shares the list")
	}
	from := ",\n      \"sensitive_from\": {\n        \"pg_settings\": [\n          \"db_tuning\"\n        ]\n      }"
	if !strings.Contains(string(data), from) {
		t.Fatalf("the state does not keep the variables as expected:\n%s", data)
	}
	withoutFrom := strings.Replace(string(data), from, "", 1)
	if v3, err := decode(context.Background(), []byte(withoutFrom), "test", ""); err != nil || v3.Computes["shop.main.primary"].SensitiveFrom != nil ||
		v3.Computes["shop.main.primary"].Sensitive == nil {
		t.Errorf("an entry written before sensitive_from was kept: %v, %+v", err, v3)
	}
	old := strings.Replace(withoutFrom, `"format_version": 3`, `"format_version": 2`, 1)
	old = strings.Replace(old, ",\n      \"sensitive\": [\n        \"pg_settings\"\n      ]", "", 1)
	if v2, err := decode(context.Background(), []byte(old), "test", ""); err != nil || v2.Computes["shop.main.primary"].Sensitive != nil {
		t.Errorf("a format-2 state: %v, %+v", err, v2)
	}
}

// A state refused at an address says which, as a diagnostic (errors.As finds
// it through the reader's wrapping), so apply -json can name the compute.
func TestRefusalsNameTheAddress(t *testing.T) {
	s := sampleState()
	s.Computes["shop.main.primary"].EndpointID = ""
	data, err := encode(s)
	if err != nil {
		t.Fatal(err)
	}
	_, err = decode(context.Background(), data, "state file x.json", "fix it")
	var refusal *diag.Error
	if !errors.As(err, &refusal) || refusal.Diagnostics[0].Address != "shop.main.primary" || !strings.HasPrefix(err.Error(), "state file x.json: ") {
		t.Errorf("decode = %v (%#v): want a diagnostic about shop.main.primary under the file's name", err, refusal)
	}
	if err := sampleState().Move("shop.dev.reporting", "shop.main.primary"); !errors.As(err, &refusal) || refusal.Diagnostics[0].Address != "shop.main.primary" {
		t.Errorf("Move onto a taken address = %v: want a diagnostic about the taken address", err)
	}
}
