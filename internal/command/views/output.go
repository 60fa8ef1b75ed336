package views

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/sizing"
)

// OutputRow is one compute output shows, as the state records it. Every
// field but Size is a state file's text: shown escaped.
type OutputRow struct {
	Address, EndpointID string
	// Host is nil until an apply records it.
	Host      *string
	ProjectID string
	// Branch is the branch's name, or its id when the state has no name.
	Branch, Type string
	Size         diff.ShownSize
}

// WriteOutput writes one aligned line per compute to w; with none, it says
// so to notes, naming the state where.
func WriteOutput(w, notes io.Writer, where string, rows []OutputRow) error {
	if len(rows) == 0 {
		fmt.Fprintf(notes, "The state (%s) records no computes.\n", textsafe.Terminal(where))
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ADDRESS\tENDPOINT\tHOST\tPROJECT\tBRANCH\tTYPE\tSIZE")
	noHost := false
	for _, r := range rows {
		host := "-"
		if r.Host != nil {
			host = *r.Host
		} else {
			noHost = true
		}
		cells := []string{r.Address, r.EndpointID, host, r.ProjectID, r.Branch, r.Type, sizeWords(r.Size)}
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
func sizeWords(s diff.ShownSize) string {
	minCU, minOK := s.Min.(float64)
	maxCU, maxOK := s.Max.(float64)
	if !minOK || !maxOK {
		if !minOK {
			return fmt.Sprint(s.Min)
		}
		return fmt.Sprint(s.Max)
	}
	return sizing.Size{Min: minCU, Max: maxCU}.String()
}
