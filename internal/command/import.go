package command

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/command/views"
)

// importOptions are what import was asked to do (cmd_import.go reads them
// from its arguments).
type importOptions struct {
	planInputs
	Address    string
	EndpointID string
	Env        environment
	Stdout     io.Writer
	Stderr     io.Writer
}

// runImport records the endpoint o names as the compute at o.Address, once
// it is sure the endpoint is what the compute block describes.
func runImport(ctx context.Context, o importOptions) error {
	if _, _, _, err := config.ParseAddress(o.Address); err != nil {
		return o.refused("Invalid address", "%v%s", err, unquotedKeyHint(o.Address))
	}
	if !strings.HasPrefix(o.EndpointID, "ep-") {
		return fmt.Errorf("%q is not an endpoint id: endpoint ids start with ep- (the console shows them, and plan lists unmanaged ones)", o.EndpointID)
	}
	cfg, err := loadConfig(ctx, o.planInputs, o.Env, o.Stderr)
	if err != nil {
		return err
	}
	comp, err := o.compute(cfg)
	if err != nil {
		return err
	}
	proj, branch := blocksOf(cfg, comp)
	backend, err := openState(ctx, cfg, o.Env)
	if err != nil {
		return err
	}
	defer closeBackend(backend)
	st, unlock, err := readLocked(ctx, backend, "import", o.LockTimeout, o.Stderr)
	if err != nil {
		return err
	}
	defer unlock()
	a := configArgsOf(o.planInputs)
	if c := st.Computes[o.Address]; c != nil {
		return o.refused("Address already in the state", "%s is already in the state, as %s; to manage another endpoint there, first `%s`.",
			o.Address, c.EndpointID, a.command("state", "rm", o.Address))
	}
	if other, ok := st.ByEndpoint(o.EndpointID); ok {
		return o.refused("Endpoint already in the state", "%s is already in the state as %s; to give it the address %s: `%s`.",
			o.EndpointID, other, o.Address, a.command("state", "mv", other, o.Address))
	}
	conn, err := connect(cfg, o.Env, o.Stderr, o.WaitTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	ep, err := o.endpoint(ctx, conn.client, comp, proj, branch)
	if err != nil {
		return err
	}
	// What is live now is what neonform takes as applied: the next plan
	// compares it with the configuration and shows the difference as changes,
	// not as drift.
	rec := diff.LiveValues(ep).Record(ep.ID, proj.ID, comp.PreventDestroy)
	if branch.ID == "" {
		rec.BranchName = branch.Name // found by name: the next plan needs no list of branches
	}
	rec.Host = ep.Host
	// Live values of what the configuration takes from sensitive variables
	// may be the secrets themselves: state show hides them.
	rec.Sensitive, rec.SensitiveFrom = diff.SensitiveAttributes(comp), diff.SensitiveFrom(comp)
	st.Computes[o.Address] = rec
	if err := backend.Write(ctx, st); err != nil {
		return err
	}
	views.WriteImported(o.Stdout, &views.Imported{EndpointID: ep.ID, Address: o.Address, Type: string(ep.Type), Branch: branch.Label}, a.context())
	return nil
}

// refused is the error of an import refused for the address, printed as a
// diagnostic that points at its compute block when there is one.
func (o importOptions) refused(summary, format string, args ...any) error {
	return refuseAt(o.Stderr, o.Env, configArgsOf(o.planInputs), o.Address, summary, fmt.Sprintf(format, args...))
}

// compute is the compute block at o.Address, or why import cannot take it.
func (o importOptions) compute(cfg *config.Config) (*config.Compute, error) {
	comp := cfg.Compute(o.Address)
	if r := cfg.RuleOf(o.Address); comp == nil && r != nil {
		return nil, o.refused("Compute of a branch rule", "%s is an instance of the branches block %q (%s:%d), known only once plan reads the branches, so import does not take it; "+
			"plan adopts the branch's read_write endpoint, and a read replica of the compute's name, on its own: `%s`",
			o.Address, r.Label, r.DeclRange.Filename, r.DeclRange.Start.Line, configArgsOf(o.planInputs).command("plan"))
	}
	if comp == nil {
		return nil, o.refused("Compute not declared", "The configuration in %s declares no compute %s%s; add its compute block first, then import.",
			displayPath(o.Dir), o.Address, declaredHint(cfg))
	}
	return comp, nil
}

// endpoint reads the endpoint o names, and refuses it unless it is of the
// compute's project, branch and type.
func (o importOptions) endpoint(ctx context.Context, client *api.Client, comp *config.Compute, proj *config.Project, branch *config.Branch) (*api.Endpoint, error) {
	branchID, err := resolveBranch(ctx, client, proj, branch)
	if err != nil {
		return nil, err
	}
	ep, err := client.GetEndpoint(ctx, proj.ID, o.EndpointID)
	if api.IsNotFound(err) {
		return nil, o.refused("No such endpoint", "Project %s (id %s) has no endpoint %s: check the id (an endpoint of another project cannot be imported here). Nothing was recorded.",
			proj.Label, proj.ID, o.EndpointID)
	}
	if err != nil {
		return nil, fmt.Errorf("reading endpoint %s: %w. Nothing was recorded", o.EndpointID, err)
	}
	want := api.EndpointTypeReadWrite
	if comp.Type == config.ReadOnly {
		want = api.EndpointTypeReadOnly
	}
	switch {
	case ep.BranchID != branchID:
		return nil, o.refused("Endpoint on another branch", "%s is on branch %s, but %s is on branch %s (%s). Nothing was recorded; import an endpoint of that branch, or move the compute block.",
			ep.ID, ep.BranchID, o.Address, branch.Label, branchID)
	case ep.Type != want:
		return nil, o.refused("Endpoint of another type", "%s is a %s endpoint, but %s is %s. Nothing was recorded; the type of an endpoint cannot change, so import one of type %s or change the compute block's type.",
			ep.ID, ep.Type, o.Address, want, want)
	}
	return ep, nil
}

// blocksOf finds the project and branch blocks of a compute.
func blocksOf(cfg *config.Config, comp *config.Compute) (*config.Project, *config.Branch) {
	for _, p := range cfg.Projects {
		for _, b := range p.Branches {
			if slices.Contains(b.Computes, comp) {
				return p, b
			}
		}
	}
	return nil, nil // cfg.Compute found it, so it is in some branch
}

// resolveBranch returns the id of a branch block: pinned, or found by name.
func resolveBranch(ctx context.Context, c *api.Client, p *config.Project, b *config.Branch) (string, error) {
	if b.ID != "" {
		return b.ID, nil
	}
	branches, err := c.ListBranches(ctx, p.ID)
	if err != nil {
		return "", fmt.Errorf("listing the branches of project %s (id %s): %w", p.Label, p.ID, err)
	}
	var ids []string
	for _, br := range branches {
		if br.Name == b.Name {
			ids = append(ids, br.ID)
		}
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("project %s (id %s) has no branch named %q", p.Label, p.ID, b.Name)
	case 1:
		return ids[0], nil
	}
	return "", fmt.Errorf("project %s (id %s) has %d branches named %q (%s); pin the branch block with id = \"br-...\"",
		p.Label, p.ID, len(ids), b.Name, strings.Join(ids, ", "))
}

// declaredHint is ", which declares a, b and c" (the first few addresses).
func declaredHint(cfg *config.Config) string {
	var addrs []string
	for _, c := range cfg.Computes() {
		addrs = append(addrs, c.Address)
	}
	switch {
	case len(addrs) == 0:
		return ""
	case len(addrs) > 8:
		addrs = append(addrs[:8], "...")
	}
	return " (it declares " + strings.Join(addrs, ", ") + ")"
}
