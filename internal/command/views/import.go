package views

import (
	"fmt"
	"io"

	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe"
)

// Imported is what import recorded: the endpoint, of its type on its branch,
// as the compute at Address.
type Imported struct {
	EndpointID, Address, Type, Branch string
}

// WriteImported says what import recorded, and suggests plan (written for
// the run's context x) to see how the endpoint differs from its block. The
// endpoint's id, type and branch are the service's text: shown escaped.
func WriteImported(w io.Writer, i *Imported, x suggest.Context) {
	fmt.Fprintf(w, "Imported %s as %s (%s on branch %s). Run `%s` to see how it differs from its compute block.\n",
		textsafe.Terminal(i.EndpointID), textsafe.Terminal(i.Address), textsafe.Terminal(i.Type), textsafe.Terminal(i.Branch), x.Text(suggest.Run("plan")))
}
