package config_test

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// TestMovedBlockReadsBack checks that the moved block neonform suggests
// loads as the move it means, whatever the address's keys hold: pasted into
// a file, it parses and moves exactly from and to.
func TestMovedBlockReadsBack(t *testing.T) {
	cases := []struct{ from, to string }{
		{"shop.main.primary", "shop.main.db"},
		{`shop.preview-pr-1.primary`, `shop.previews["preview/pr-1"].primary`},
		{`shop.main.reports`, `shop.main.reports["a \"quoted\" ${x} %{y} \\ key\n"]`},
		{"analytics", "data"},
		{"var.main.primary", "shop.main.primary"},
	}
	for _, c := range cases {
		block := config.MovedBlock(c.from, c.to)
		t.Logf("%s", block)
		if !strings.HasPrefix(block, "moved {\n") || !strings.HasSuffix(block, "\n}") {
			t.Errorf("MovedBlock(%q, %q) is not a block on several lines:\n%s", c.from, c.to, block)
		}
		src := `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {}
  }
}
` + block + "\n"
		cfg, diags := config.LoadSources("", map[string][]byte{"main.hcl": []byte(src)}, config.Options{})
		var got []string
		if cfg != nil {
			for _, m := range cfg.Moves {
				got = append(got, m.From+" -> "+m.To)
			}
		}
		want := c.from + " -> " + c.to
		// The addresses need not be declared for the test: an error about
		// that is the only one allowed, and the move must read back.
		for _, d := range diags {
			if !strings.HasPrefix(d.Summary, "Move to an undeclared") && !strings.HasPrefix(d.Summary, "Move from a declared") {
				t.Errorf("MovedBlock(%q, %q) does not load:\n%s\n%s", c.from, c.to, block, d.String())
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("MovedBlock(%q, %q) reads back as %v:\n%s", c.from, c.to, got, block)
		}
	}
}
