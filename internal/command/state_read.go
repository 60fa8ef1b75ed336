package command

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/state"
)

// stateOptions are the inputs of the state subcommands and force-unlock.
type stateOptions struct {
	planInputs
	// Args are the subcommand's own arguments, DIR taken off.
	Args []string
	// JSON: state list and show print JSON, for scripts.
	JSON bool
	// DryRun: state rm and mv say what they would do and write nothing.
	DryRun bool
	// Force: state push replaces a state it would refuse.
	Force  bool
	Env    environment
	Stdin  io.Reader // state push -
	Stdout io.Writer
	Stderr io.Writer
}

// openStateOf opens the state that the configuration in o.Dir names.
func openStateOf(ctx context.Context, o stateOptions) (state.Backend, error) {
	cfg, err := loadConfig(ctx, o.planInputs, o.Env, o.Stderr)
	if err != nil {
		return nil, err
	}
	return openState(ctx, cfg, o.Env)
}

// readState reads the state that the configuration in o.Dir names.
func readState(ctx context.Context, o stateOptions) (*state.State, string, error) {
	b, err := openStateOf(ctx, o)
	if err != nil {
		return nil, "", err
	}
	defer closeBackend(b)
	st, err := b.Read(ctx)
	return st, b.Describe(), err
}

func runStateList(ctx context.Context, o stateOptions) error {
	prefix := ""
	if len(o.Args) > 0 {
		prefix = o.Args[0]
		if _, err := config.ParsePartialAddress(prefix); err != nil {
			return refuseAt(o.Stderr, o.Env, configArgsOf(o.planInputs), prefix, "Invalid address", err.Error()+unquotedKeyHint(prefix))
		}
	}
	st, where, err := readState(ctx, o)
	if err != nil {
		return err
	}
	var addrs []string
	for _, addr := range st.Addresses() {
		// As output and -target read an address: a part without a key
		// covers every instance of its block.
		if prefix == "" || diff.Covers(prefix, addr) {
			addrs = append(addrs, addr)
		}
	}
	if o.JSON {
		list := make([]stateEntryJSON, 0, len(addrs))
		for _, addr := range addrs {
			list = append(list, entryJSON(addr, st.Computes[addr]))
		}
		return writeJSON(o.Stdout, struct {
			Computes []stateEntryJSON `json:"computes"`
		}{list})
	}
	l := &views.StateList{Where: where, Prefix: prefix, Empty: len(st.Computes) == 0, Some: someAddresses(st)}
	for _, addr := range addrs {
		c := st.Computes[addr]
		l.Rows = append(l.Rows, views.StateRow{Address: addr, EndpointID: c.EndpointID, Type: shownType(c)})
	}
	return views.WriteStateList(o.Stdout, o.Stderr, l)
}

func runStateShow(ctx context.Context, o stateOptions) error {
	st, _, err := readState(ctx, o)
	if err != nil {
		return err
	}
	addr := o.Args[0]
	c := st.Computes[addr]
	if c == nil {
		return refuse(o.Stderr, o.Env, configArgsOf(o.planInputs), notInState(addr, st))
	}
	if o.JSON {
		return writeJSON(o.Stdout, entryJSON(addr, c))
	}
	views.WriteStateShow(o.Stdout, addr, c)
	return nil
}

// notInState is the diagnostic of an address the state does not record.
func notInState(addr string, st *state.State) diag.Diagnostic {
	return diag.AtAddress(addr, "Not in the state",
		fmt.Sprintf("%s is not in the state (%s)%s", addr, someAddresses(st), unquotedKeyHint(addr)))
}

// someAddresses is "it records a, b and c" (the first few addresses), or
// that it records none.
func someAddresses(st *state.State) string {
	have := st.Addresses()
	if len(have) == 0 {
		return "the state records no computes"
	}
	if len(have) > 8 {
		have = append(have[:8], "...")
	}
	return "it records " + strings.Join(have, ", ")
}

// unquotedKeyHint explains an address whose key lost its double quotes on
// the way through the shell (shop.main.reports["eu"] typed without single
// quotes arrives as shop.main.reports[eu]); "" for any other address.
func unquotedKeyHint(addr string) string {
	if !strings.Contains(addr, "[") || strings.Contains(addr, `"`) {
		return ""
	}
	quoted := strings.NewReplacer("[", `["`, "]", `"]`).Replace(addr)
	return fmt.Sprintf(". Did the shell remove the double quotes around the key? Put the whole address in single quotes: '%s'", quoted)
}

func runForceUnlock(ctx context.Context, o stateOptions) error {
	b, err := openStateOf(ctx, o)
	if err != nil {
		return err
	}
	defer closeBackend(b)
	id := o.Args[0]
	switch b := b.(type) {
	case *state.Local:
		err = b.ForceUnlock(id)
	case *state.Postgres:
		err = b.ForceUnlock(ctx, id)
	default:
		err = fmt.Errorf("%s cannot be force-unlocked by neonform", b.Describe())
	}
	if err != nil {
		return err
	}
	views.WriteUnlocked(o.Stdout, id, b.Describe())
	return nil
}
