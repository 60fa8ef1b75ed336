package diff

import (
	"fmt"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state"
)

func TestOfflineRenames(t *testing.T) {
	load := func(t *testing.T, extra string) *config.Config {
		t.Helper()
		src := `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "writer" {}
    compute "reader" {
      type = "read_only"
    }
  }
  branch "dev" {
    compute "primary" {}
  }
}
` + extra
		cfg, diags := config.LoadSources("dir", map[string][]byte{"main.hcl": []byte(src)}, config.Options{})
		if len(diags) > 0 {
			t.Fatalf("diagnostics: %v", diags)
		}
		return cfg
	}
	st := state.New()
	add := func(addr string, typ api.EndpointType) {
		st.Computes[addr] = &state.Compute{EndpointID: "ep-" + fmt.Sprint(len(st.Computes)), Type: typ}
	}
	add("shop.main.primary", api.EndpointTypeReadWrite) // now writer: one of each at main, read_write
	add("shop.main.replica", api.EndpointTypeReadOnly)  // now reader
	add("shop.dev.primary", api.EndpointTypeReadWrite)  // still declared
	add("shop.dev.old", api.EndpointTypeReadOnly)       // nothing read_only created on dev
	got := fmt.Sprint(OfflineRenames(load(t, ""), st))
	if want := "[{shop.main.replica shop.main.reader} {shop.main.primary shop.main.writer}]"; got != want {
		t.Errorf("OfflineRenames = %s, want %s", got, want)
	}

	// A moved block or a removed block says it already.
	got = fmt.Sprint(OfflineRenames(load(t, `
moved {
  from = shop.main.primary
  to   = shop.main.writer
}
removed {
  from = shop.main.replica
}
`), st))
	if got != "[]" {
		t.Errorf("with moved and removed blocks: %s, want none", got)
	}

	// Two deleted of a kind at one place: which is which is a guess.
	add("shop.main.other", api.EndpointTypeReadWrite)
	if got := fmt.Sprint(OfflineRenames(load(t, ""), st)); got != "[{shop.main.replica shop.main.reader}]" {
		t.Errorf("with two read_write deleted on main: %s", got)
	}
}
