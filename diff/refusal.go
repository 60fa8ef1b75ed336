package diff

import (
	"errors"

	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
)

// Refusal is a plan refused for err (from Verify or Check), as the one
// diagnostic apply and the plan file's reader report: its summary the one
// err carries (summary when err carries none), its detail sentence (what
// people read, already hidden of secrets), and about the compute err names.
// The summary is hidden of secrets as the sentence is.
func Refusal(err error, summary, sentence string, secrets []Secret) diag.Diagnostic {
	d := diag.Diagnostic{Severity: diag.SeverityError, Summary: summary, Detail: sentence, Suggestions: suggest.Of(err)}
	var found *diag.Error
	if errors.As(err, &found) && len(found.Diagnostics) > 0 {
		first := found.Diagnostics[0]
		d.Summary, d.Address = HideTexts(first.Summary, secrets), first.Address
	}
	return d
}
