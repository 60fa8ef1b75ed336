package config

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/internal/diag"
)

// A near-miss ("Did you mean X?") is a fact a diagnostic holds (diag.Near),
// never words config writes: internal/diag words it for every view (the
// CLI's text, -json's did_you_mean, the language server), so it reads the
// same everywhere. suggest chooses the name.

// nearMiss is the near-miss name (none when ""), to be worded at byte at of a
// detail; quoted: the name is a string value, written quoted, else a word of
// the language (a type, var.x) written as it is.
func nearMiss(at int, quoted bool, name string) diag.Near {
	if name == "" {
		return diag.Near{}
	}
	return diag.Near{Names: []string{name}, Strings: quoted, At: at}
}

// withNear records near on d, and is d; nothing when near has no name.
func withNear(d *hcl.Diagnostic, near diag.Near) *hcl.Diagnostic {
	if len(near.Names) > 0 {
		d.Extra = near
	}
	return d
}

// prefixDetail puts prefix before d's detail, and moves the place of its
// near-miss with the text.
func prefixDetail(d *hcl.Diagnostic, prefix string) {
	d.Detail = prefix + d.Detail
	if near, ok := d.Extra.(diag.Near); ok {
		near.At += len(prefix)
		d.Extra = near
	}
}
