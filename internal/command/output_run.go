package command

import (
	"context"
	"errors"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/state"
)

// outputOptions are the inputs of neonform output.
type outputOptions struct {
	stateOptions
	// Filter is ADDR: an exact address, or a project, branch or block that
	// covers some (diff.Covers); "" for every compute.
	Filter string
	// ConnectionURIs is -connection-uris: -json asks the service for each
	// compute's connection URI (output_uris.go).
	ConnectionURIs bool
}

// outputEntry is one compute as output -json prints it. Size and type are
// values (any): a number or a type, or the words that hide a sensitive one.
type outputEntry struct {
	EndpointID string  `json:"endpoint_id"`
	Host       *string `json:"host"`
	ProjectID  string  `json:"project_id"`
	BranchID   string  `json:"branch_id"`
	BranchName *string `json:"branch_name"`
	Type       string  `json:"type"`
	diff.ShownSize
	// ConnectionURI is there with -connection-uris only.
	ConnectionURI string `json:"connection_uri,omitempty"`
}

func runOutput(ctx context.Context, o outputOptions) error {
	st, where, err := readState(ctx, o.stateOptions)
	if err != nil {
		return err
	}
	var addrs []string
	for _, addr := range st.Addresses() {
		if _, _, deposed := state.Deposed(addr); deposed {
			continue // an old endpoint an interrupted replacement left, which the next apply deletes
		}
		if o.Filter == "" || diff.Covers(o.Filter, addr) {
			addrs = append(addrs, addr)
		}
	}
	if o.Filter != "" && len(addrs) == 0 {
		return errors.New(notInState(o.Filter, st).Detail)
	}
	if o.JSON {
		var uris map[string]string
		if o.ConnectionURIs {
			if uris, err = connectionURIs(ctx, o, st, addrs); err != nil {
				return err
			}
		}
		out := make(map[string]outputEntry, len(addrs))
		for _, addr := range addrs {
			e := outputOf(st.Computes[addr])
			e.ConnectionURI = uris[addr]
			out[addr] = e
		}
		return writeJSON(o.Stdout, out)
	}
	rows := make([]views.OutputRow, len(addrs))
	for i, addr := range addrs {
		e := outputOf(st.Computes[addr])
		branch := e.BranchID
		if e.BranchName != nil {
			branch = *e.BranchName
		}
		rows[i] = views.OutputRow{Address: addr, EndpointID: e.EndpointID, Host: e.Host, ProjectID: e.ProjectID,
			Branch: branch, Type: e.Type, Size: e.ShownSize}
	}
	return views.WriteOutput(o.Stdout, o.Stderr, where, rows)
}

func outputOf(c *state.Compute) outputEntry {
	e := outputEntry{EndpointID: c.EndpointID, ProjectID: c.ProjectID, BranchID: c.BranchID, Type: shownType(c),
		ShownSize: diff.AppliedSize(c)}
	if c.Host != "" {
		e.Host = &c.Host
	}
	if c.BranchName != "" {
		e.BranchName = &c.BranchName
	}
	return e
}
