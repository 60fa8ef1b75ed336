package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/sizing"
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
	if len(addrs) == 0 {
		fmt.Fprintf(o.Stderr, "The state (%s) records no computes.\n", where)
		return nil
	}
	return outputTable(o.Stdout, st, addrs)
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

// outputTable prints one aligned line per compute, its text from the state
// file shown escaped (internal/textsafe).
func outputTable(w io.Writer, st *state.State, addrs []string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ADDRESS\tENDPOINT\tHOST\tPROJECT\tBRANCH\tTYPE\tSIZE")
	noHost := false
	for _, addr := range addrs {
		e := outputOf(st.Computes[addr])
		host := "-"
		if e.Host != nil {
			host = *e.Host
		} else {
			noHost = true
		}
		branch := e.BranchID
		if e.BranchName != nil {
			branch = *e.BranchName
		}
		cells := []string{addr, e.EndpointID, host, e.ProjectID, branch, e.Type, sizeWords(e)}
		for i, s := range cells {
			cells[i] = textsafe.Terminal(s)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if noHost {
		_, err := fmt.Fprintln(w, "HOST -: the state has no host for it yet; the next apply that changes the compute records it.")
		return err
	}
	return nil
}

// sizeWords is the size as a plan says it ("0.25-4 CU autoscaling"), or
// the words that hide it.
func sizeWords(e outputEntry) string {
	minCU, minOK := e.Min.(float64)
	maxCU, maxOK := e.Max.(float64)
	if !minOK || !maxOK {
		if !minOK {
			return fmt.Sprint(e.Min)
		}
		return fmt.Sprint(e.Max)
	}
	return sizing.Size{Min: minCU, Max: maxCU}.String()
}
