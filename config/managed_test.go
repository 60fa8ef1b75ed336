package config

import (
	"testing"

	"github.com/neonform/neonform/internal/managed"
)

// Each managed attribute that a compute block sets has a decoder, and each
// decoder is of one: a new attribute half-wired into config fails here, and
// its samples in diff's TestEveryAttributeIsWiredThroughEveryUse check that
// the decoder reads every value into the Compute.
func TestEveryManagedArgumentIsDecoded(t *testing.T) {
	var schema []string
	for _, a := range computeSchema.Attributes {
		schema = append(schema, a.Name)
	}
	firsts := map[string]bool{}
	for _, a := range managed.All {
		if len(a.Arguments) == 0 {
			continue
		}
		firsts[a.Arguments[0]] = true
		if computeDecoders[a.Arguments[0]] == nil {
			t.Errorf("%s: no decoder in computeDecoders reads %v", a.Name, a.Arguments)
		}
		for _, arg := range a.Arguments {
			if !contains(schema, arg) {
				t.Errorf("%s: the compute block's schema does not take %s", a.Name, arg)
			}
			if a.Home != "" && attributeHomes[arg] != a.Home {
				t.Errorf("%s: a misplaced %s is sent to %q, want %q", a.Name, arg, attributeHomes[arg], a.Home)
			}
		}
	}
	for arg := range computeDecoders {
		if !firsts[arg] {
			t.Errorf("computeDecoders reads %s, which no managed attribute names first", arg)
		}
	}
}

// Each managed attribute's default (managed.Attribute.Default) is a value
// of its kind, and an empty compute block asks for it; diff's TestEveryAttributeIsDescribedOnce checks the same values
// through the attribute table.
func TestEveryDefaultIsApplied(t *testing.T) {
	for _, a := range managed.All {
		if a.Default.Placed {
			continue
		}
		if !a.DefaultOf(&managed.Values{}, "reporting") {
			v, _ := a.Default.Of("reporting")
			t.Errorf("%s: its default %#v (%T) does not fit its field", a.Name, v, v)
		}
	}
	cfg, diags := LoadSources(".", map[string][]byte{"main.hcl": []byte(`project "p" {
  id = "quiet-meadow-52817364"
  branch "b" {
    compute "reporting" {}
    compute "replica" {
      type = "read_only"
    }
  }
}
`)}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	got := cfg.Compute("p.b.reporting")
	want := &Compute{Type: ReadWrite, Applied: managed.Applied{MinCU: 1, MaxCU: 1, SuspendTimeoutSeconds: SuspendDefault, PgSettings: map[string]string{}, Name: "reporting"}}
	if got.Type != want.Type || got.MinCU != want.MinCU || got.MaxCU != want.MaxCU || got.SuspendTimeoutSeconds != want.SuspendTimeoutSeconds ||
		got.Disabled != want.Disabled || got.Name != want.Name || got.PgSettings == nil || len(got.PgSettings) != 0 {
		t.Errorf("an empty compute block is %+v, want %+v", got, want)
	}
	// No two computes share the default's map.
	got.PgSettings["work_mem"] = "64MB"
	if other := cfg.Compute("p.b.replica"); len(other.PgSettings) != 0 || len(managed.PgSettings.Default.Value.(map[string]string)) != 0 {
		t.Errorf("setting one compute's pg_settings set another's: %v", other.PgSettings)
	}
}
