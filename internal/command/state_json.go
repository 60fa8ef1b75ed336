package command

import (
	"encoding/json"
	"io"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/state"
)

// stateEntryJSON is a state entry as state list -json and state show -json
// print it: the state file's own fields, with the address, and the host
// clients connect to (null when the state does not know it yet: an entry
// recorded before neonform kept hosts, until an apply touches it).
type stateEntryJSON struct {
	Address        string  `json:"address"`
	EndpointID     string  `json:"endpoint_id"`
	Host           *string `json:"host"`
	ProjectID      string  `json:"project_id"`
	BranchID       string  `json:"branch_id"`
	BranchName     string  `json:"branch_name,omitempty"`
	Type           string  `json:"type"`
	PreventDestroy bool    `json:"prevent_destroy"`
	// Applied is state.Attributes, each value that came from a sensitive
	// variable replaced by diff.HiddenValue (a setting's name kept).
	Applied json.RawMessage `json:"applied"`
	// Sensitive names the attributes whose values are hidden, as the
	// state records them.
	Sensitive []string `json:"sensitive,omitempty"`
	// SensitiveFrom names, for each of them, the sensitive variables the
	// value came from, as the state records them.
	SensitiveFrom map[string][]string `json:"sensitive_from,omitempty"`
}

func entryJSON(addr string, c *state.Compute) stateEntryJSON {
	e := stateEntryJSON{
		Address: addr, EndpointID: c.EndpointID, ProjectID: c.ProjectID, BranchID: c.BranchID,
		BranchName: c.BranchName, Type: shownType(c), PreventDestroy: c.PreventDestroy,
		Applied: planfile.HiddenApplied(c), Sensitive: c.Sensitive, SensitiveFrom: c.SensitiveFrom,
	}
	if c.Host != "" {
		e.Host = &c.Host
	}
	return e
}

// shownType is the entry's type as state list and show print it.
func shownType(c *state.Compute) string {
	if s := diff.SecretsOf(c); s.Hides(managed.Type.Name) {
		return s.Value(managed.Type.Name)
	}
	return string(c.Type)
}

// writeJSON prints v indented, with a newline at the end. Not for HTML: a
// connection URI keeps its & as it is, for the reader and for grep.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
