package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/config"
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

func outputCommand() *cli.Command {
	return &cli.Command{
		Name:      "output",
		Usage:     "print each compute's endpoint and host from the state, for scripts and pipelines",
		UsageText: "neonform output [ADDR] [DIR] [-json [-connection-uris]] [-var NAME=VALUE]... [-var-file FILE]...",
		Description: `Prints, from the state alone (no API call, no API key), each managed compute's
address, endpoint id, host, project, branch, type and size: what a pipeline
hands to the job that connects to it. ADDR keeps the computes it names: an
exact address, or a project, a branch or a block that covers several
(shop, shop.main, shop.previews for every instance of a branch rule).

With one argument that is a directory here, it is DIR; to filter by a name
that is also a directory's, give both: neonform output shop .

-json prints an object keyed by address; each value has endpoint_id, host
(null until an apply records it), project_id, branch_id, branch_name (null
when the branch block names the branch by id), type, min_cu and max_cu. A
value that came from a variable declared sensitive is "(sensitive value from
var.NAME)" instead.

-connection-uris (with -json) adds connection_uri to each: the URI the
service gives for the branch's first database, as its owner, through the
compute, without the password (psql and pgx take it from PGPASSWORD or
~/.pgpass). It is read from the service, so it needs the API key; the state
never holds it.

Examples:
   neonform output
   neonform output -json | jq -r '."shop.main.primary".host'
   neonform output 'shop.previews["preview/pr-12"].primary' infra -json

Exit status: 0 success, 1 when ADDR names no compute of the state, or the
state cannot be read.`,
		Flags: append(stateFlags(), jsonFlag(),
			&cli.BoolFlag{Name: "connection-uris", Usage: "with -json, add each compute's connection URI, without its password, read from the service"}),
		Action: func(c *cli.Context) error {
			o, err := outputOptionsFrom(c)
			if err != nil {
				return err
			}
			return runOutput(c.Context, o)
		},
	}
}

func outputOptionsFrom(c *cli.Context) (outputOptions, error) {
	args := c.Args().Slice()
	o := outputOptions{stateOptions: stateOptions{
		// Only the neonform block is read: it says where the state is.
		planInputs: planInputs{Dir: ".", Chdir: c.String("chdir"), Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}, SettingsOnly: true},
		JSON:       c.Bool("json"),
		Env:        environmentOf(c), Stdout: c.App.Writer, Stderr: c.App.ErrWriter,
	}, ConnectionURIs: c.Bool("connection-uris")}
	if o.ConnectionURIs && !o.JSON {
		return o, errors.New("-connection-uris adds connection_uri to the JSON output: add -json")
	}
	switch len(args) {
	case 0:
	case 1:
		if info, err := os.Stat(args[0]); err == nil && info.IsDir() {
			o.Dir = args[0]
		} else {
			o.Filter = args[0]
		}
	case 2:
		o.Filter, o.Dir = args[0], args[1]
	default:
		return o, fmt.Errorf("too many arguments: output takes an address and a directory, both optional (got %s)", strings.Join(args, " "))
	}
	remember(c, o.planInputs)
	if o.Filter != "" {
		if _, err := config.ParsePartialAddress(o.Filter); err != nil {
			return o, fmt.Errorf("output %s: %w%s", o.Filter, err, unquotedKeyHint(o.Filter))
		}
	}
	return o, nil
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
