package command

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
)

// scopeFrom reads -target, -replace and -destroy, and refuses, before
// anything is read, an address that does not parse or flags that do not go
// together.
func scopeFrom(c *cli.Context) (diff.Scope, error) {
	s := diff.Scope{Targets: c.StringSlice("target"), Replace: c.StringSlice("replace"), Destroy: c.Bool("destroy")}
	for _, t := range s.Targets {
		if _, err := config.ParsePartialAddress(t); err != nil {
			return s, fmt.Errorf("-target: %w%s", err, unquotedKeyHint(t))
		}
	}
	for _, r := range s.Replace {
		if _, _, _, err := config.ParseAddress(r); err != nil {
			return s, fmt.Errorf("-replace: %w%s", err, unquotedKeyHint(r))
		}
	}
	if s.Destroy && len(s.Replace) > 0 {
		return s, fmt.Errorf("-destroy deletes the computes the state manages (with -target, those it covers): it takes no -replace")
	}
	return s, nil
}
