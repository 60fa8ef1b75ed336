package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// stateEntryJSON is a state entry as state list -json and state show -json
// print it: the state file's own fields, with the address, and the host
// clients connect to (null when the state does not know it yet: an entry
// recorded before neonform kept hosts, until an apply touches it).
type stateEntryJSON struct {
	Address        string      `json:"address"`
	EndpointID     string      `json:"endpoint_id"`
	Host           *string     `json:"host"`
	ProjectID      string      `json:"project_id"`
	BranchID       string      `json:"branch_id"`
	BranchName     string      `json:"branch_name,omitempty"`
	Type           string      `json:"type"`
	PreventDestroy bool        `json:"prevent_destroy"`
	Applied        appliedJSON `json:"applied"`
	// Sensitive names the attributes whose values are hidden, as the
	// state records them.
	Sensitive []string `json:"sensitive,omitempty"`
}

// appliedJSON is state.Attributes with each value that came from a sensitive
// variable replaced by diff.SensitiveValue (a setting's name kept).
type appliedJSON struct {
	Name                  any               `json:"name"`
	MinCU                 any               `json:"min_cu"`
	MaxCU                 any               `json:"max_cu"`
	SuspendTimeoutSeconds any               `json:"suspend_timeout_seconds"`
	PgSettings            map[string]string `json:"pg_settings,omitempty"`
	Disabled              any               `json:"disabled"`
}

func entryJSON(addr string, c *state.Compute) stateEntryJSON {
	hide := func(attr string, v any) any {
		if diff.Hides(c.Sensitive, attr) {
			return diff.SensitiveValue
		}
		return v
	}
	a := c.Applied
	e := stateEntryJSON{
		Address: addr, EndpointID: c.EndpointID, ProjectID: c.ProjectID, BranchID: c.BranchID,
		BranchName: c.BranchName, Type: fmt.Sprint(hide("type", c.Type)), PreventDestroy: c.PreventDestroy,
		Applied: appliedJSON{Name: hide("name", a.Name), MinCU: hide("min_cu", a.MinCU), MaxCU: hide("max_cu", a.MaxCU),
			SuspendTimeoutSeconds: hide("suspend_timeout", a.SuspendTimeoutSeconds), Disabled: hide("disabled", a.Disabled)},
		Sensitive: c.Sensitive,
	}
	if len(a.PgSettings) > 0 {
		e.Applied.PgSettings = maps.Clone(a.PgSettings)
		for k := range e.Applied.PgSettings {
			if diff.Hides(c.Sensitive, "pg_settings."+k) {
				e.Applied.PgSettings[k] = diff.SensitiveValue
			}
		}
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
