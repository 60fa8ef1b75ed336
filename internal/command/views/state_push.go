package views

import (
	"fmt"
	"io"

	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

// StatePush is what state push did: the state it pushed and where, and what
// the backend held before (state.Pushed).
type StatePush struct {
	// Source is what the state was read from: "state file F", or "the
	// state on standard input".
	Source string
	// Where describes the backend pushed to.
	Where string
	// Lineage, Serial and Computes are the pushed file's.
	Lineage  string
	Serial   int64
	Computes int
	Result   state.Pushed
}

// WriteStatePush says what a push did, and suggests plan (written for the
// run's context x) to check the state against the configuration.
func WriteStatePush(w io.Writer, p *StatePush, x suggest.Context) {
	where, res := textsafe.Terminal(p.Where), p.Result
	if res.Unchanged {
		fmt.Fprintf(w, "%s already holds this state (lineage %s, serial %d): nothing was written.\n", where, textsafe.Terminal(p.Lineage), res.Serial)
		return
	}
	held := "it held no state"
	if res.Replaced {
		held = fmt.Sprintf("it held lineage %s at serial %d, with %s", textsafe.Terminal(res.StoredLineage), res.StoredSerial, english.Plural(res.StoredComputes, "compute", "computes"))
	}
	fmt.Fprintf(w, "Pushed %s to %s: lineage %s, serial %d, %s (%s).\n",
		textsafe.Terminal(p.Source), where, textsafe.Terminal(p.Lineage), res.Serial, english.Plural(p.Computes, "compute", "computes"), held)
	if res.Forced != "" {
		fmt.Fprintf(w, "-force: it was replaced although %s.\n", textsafe.Terminal(res.Forced))
	}
	if res.Serial != p.Serial {
		fmt.Fprintf(w, "Its serial is %d, not the file's %d: a serial never goes back, so apply refuses a plan saved before wherever the entries of a project it changes differ now.\n", res.Serial, p.Serial)
	}
	fmt.Fprintf(w, "Nothing changed in the service; run `%s` to check the state against the configuration.\n", x.Text(suggest.Run("plan")))
}
