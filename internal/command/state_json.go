package command

import (
	"encoding/json"
	"io"

	"github.com/neonform/neonform/state"
)

// stateEntryJSON is a state entry as state list -json and state show -json
// print it: the state file's own fields, with the address, and the host
// clients connect to (null when the state does not know it yet: an entry
// recorded before neonform kept hosts, until an apply touches it).
type stateEntryJSON struct {
	Address        string           `json:"address"`
	EndpointID     string           `json:"endpoint_id"`
	Host           *string          `json:"host"`
	ProjectID      string           `json:"project_id"`
	BranchID       string           `json:"branch_id"`
	BranchName     string           `json:"branch_name,omitempty"`
	Type           string           `json:"type"`
	PreventDestroy bool             `json:"prevent_destroy"`
	Applied        state.Attributes `json:"applied"`
}

func entryJSON(addr string, c *state.Compute) stateEntryJSON {
	e := stateEntryJSON{
		Address: addr, EndpointID: c.EndpointID, ProjectID: c.ProjectID, BranchID: c.BranchID,
		BranchName: c.BranchName, Type: string(c.Type), PreventDestroy: c.PreventDestroy, Applied: c.Applied,
	}
	if c.Host != "" {
		e.Host = &c.Host
	}
	return e
}

// writeJSON prints v indented, with a newline at the end.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
