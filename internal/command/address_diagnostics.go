package command

import (
	"io"

	"github.com/neonform/neonform/internal/diag"
)

// Commands that act on addresses (import, state rm, state mv) refuse with
// diagnostics whose subject is the address, printed as configuration errors
// are: the summary, "on <address>", then what to do.

// refuse prints ds on w (the details' suggested commands completed for the
// run's configuration) and returns the error that ends the command with
// exit code 1, having said everything.
func refuse(w io.Writer, env environment, a configArgs, ds ...diag.Diagnostic) error {
	a.completeDiagnostics(ds)
	writeDiagnostics(w, ds, nil, env.color(w))
	return &exitError{code: 1, diags: ds}
}

// refuseAt is refuse of one error about address.
func refuseAt(w io.Writer, env environment, a configArgs, address, summary, detail string) error {
	return refuse(w, env, a, diag.AtAddress(address, summary, detail))
}
