package lsp

import (
	"testing"

	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
)

// The editor's message words a near-miss as the CLI does, at its place, with
// the suggested command in the run's context after it.
func TestLSPWordsTheNearMiss(t *testing.T) {
	missing := `Project shop has no branch named "devel".`
	d := diag.Diagnostic{Summary: "Branch not found", Detail: missing + " Then run `neonform plan`.",
		Near:        diag.Near{Names: []string{"dev1"}, Strings: true, At: len(missing)},
		Suggestions: []suggest.Command{suggest.Run("plan")}}
	got := lspDiagnostic(d, nil, suggest.Context{Chdir: "infra"}).Message
	want := "Branch not found\n\n" + missing + ` Did you mean "dev1"? Then run ` + "`neonform -chdir=infra plan`."
	if got != want {
		t.Errorf("message:\n%s\nwant\n%s", got, want)
	}
}
