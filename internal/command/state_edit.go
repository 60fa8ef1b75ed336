package command

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/state"
)

// state rm and state mv: edits of the state alone, all or nothing, under
// the lock, or with -dry-run said and not written.

// stateEdit is one edit: the changes it makes to a state, or the
// diagnostics of why it cannot (then nothing is written).
type stateEdit func(st *state.State) ([]entryMove, diag.Diagnostics)

// entryMove is one entry an edit moves (to "" for a removal).
type entryMove struct {
	from, to string
	entry    *state.Compute
}

// editState runs edit: with -dry-run on the state as it is, without the
// lock, and writes nothing; otherwise under the lock, and writes the
// result. before and after are the serials (equal for a dry run).
func editState(ctx context.Context, o stateOptions, op string, edit stateEdit) (done []entryMove, before, after int64, err error) {
	refused := func(ds diag.Diagnostics) error { return refuse(o.Stderr, o.Env, configArgsOf(o.planInputs), ds...) }
	if o.DryRun {
		st, _, err := readState(ctx, o)
		if err != nil {
			return nil, 0, 0, err
		}
		done, ds := edit(st)
		if len(ds) > 0 {
			return nil, 0, 0, refused(ds)
		}
		return done, st.Serial, st.Serial, nil
	}
	b, err := openStateOf(ctx, o)
	if err != nil {
		return nil, 0, 0, err
	}
	defer closeBackend(b)
	st, unlock, err := readLocked(ctx, b, op, o.LockTimeout, o.Stderr)
	if err != nil {
		return nil, 0, 0, err
	}
	defer unlock()
	before = st.Serial
	done, ds := edit(st)
	if len(ds) > 0 {
		return nil, 0, 0, refused(ds)
	}
	if err := b.Write(ctx, st); err != nil {
		return nil, 0, 0, err
	}
	return done, before, st.Serial, nil
}

// saying adds a sentence to the detail of each of ds.
func saying(ds diag.Diagnostics, sentence string) diag.Diagnostics {
	for i := range ds {
		ds[i].Word()
		ds[i].Detail = strings.TrimSuffix(ds[i].Detail, ".") + ". " + sentence
	}
	return ds
}

// edited is what an edit did, or with -dry-run would do, for the view.
func edited(o stateOptions, done []entryMove, before, after int64) *views.StateEdit {
	e := &views.StateEdit{DryRun: o.DryRun, Before: before, After: after}
	for _, m := range done {
		e.Entries = append(e.Entries, views.StateEntry{From: m.from, To: m.to, EndpointID: m.entry.EndpointID})
	}
	return e
}

func runStateRm(ctx context.Context, o stateOptions) error {
	var addrs []string // each once, in the order given
	for _, a := range o.Args {
		if !slices.Contains(addrs, a) {
			addrs = append(addrs, a)
		}
	}
	var bad diag.Diagnostics
	prefixes := map[string]bool{} // a project or a branch: every compute under it, as state mv takes them
	for _, a := range addrs {
		if _, _, _, err := config.ParseAddress(a); err != nil {
			if _, _, deposed := state.Deposed(a); deposed {
				continue
			}
			if _, perr := config.ParsePartialAddress(a); perr == nil {
				prefixes[a] = true
				continue
			}
			bad = append(bad, diag.AtAddress(a, "Invalid address", err.Error()+unquotedKeyHint(a)))
		}
	}
	if len(bad) > 0 {
		return refuse(o.Stderr, o.Env, configArgsOf(o.planInputs), bad...)
	}
	done, before, after, err := editState(ctx, o, "state rm", func(st *state.State) ([]entryMove, diag.Diagnostics) {
		var done []entryMove
		var missing diag.Diagnostics
		for _, a := range addrs {
			switch under := computesUnder(st, a); {
			case st.Computes[a] != nil:
				done = appendMove(done, entryMove{from: a, entry: st.Computes[a]})
			case prefixes[a] && len(under) > 0:
				for _, addr := range under {
					done = appendMove(done, entryMove{from: addr, entry: st.Computes[addr]})
				}
			default:
				missing = append(missing, notInState(a, st))
			}
		}
		if len(missing) > 0 {
			return nil, saying(missing, "Nothing was removed.")
		}
		for _, m := range done {
			delete(st.Computes, m.from)
		}
		return done, nil
	})
	if err != nil {
		return err
	}
	views.WriteStateEdit(o.Stdout, edited(o, done, before, after), configArgsOf(o.planInputs).context())
	return nil
}

// computesUnder are the state's addresses under prefix (a project or a
// branch), sorted.
func computesUnder(st *state.State, prefix string) []string {
	var under []string
	for _, addr := range st.Addresses() {
		if addr != prefix && diff.Covers(prefix, addr) {
			under = append(under, addr)
		}
	}
	return under
}

// appendMove adds m unless an address given before already took its entry
// (shop and shop.main.primary both given).
func appendMove(done []entryMove, m entryMove) []entryMove {
	if slices.ContainsFunc(done, func(d entryMove) bool { return d.from == m.from }) {
		return done
	}
	return append(done, m)
}

func runStateMv(ctx context.Context, o stateOptions) error {
	a := configArgsOf(o.planInputs)
	from, to := o.Args[0], o.Args[1]
	fromParts, toParts, ds := movePrefixes(from, to)
	if len(ds) > 0 {
		return refuse(o.Stderr, o.Env, a, ds...)
	}
	// Between project blocks, the configuration says whether they are one
	// project: it is read only then, as state commands otherwise read the
	// neonform block alone.
	var toProject *config.Project
	if fromParts[0] != toParts[0] {
		full := o
		full.SettingsOnly = false
		cfg, err := loadConfig(ctx, full.planInputs, o.Env, o.Stderr)
		if err != nil {
			return err
		}
		if toProject = projectBlock(cfg, toParts[0]); toProject == nil {
			return refuseAt(o.Stderr, o.Env, a, to, "Project not declared",
				fmt.Sprintf("The configuration in %s declares no project block %s, so it cannot say whether %s is in the same project as %s. "+
					"Declare the project block (its id is the project of the endpoints that move) and run the move again. Nothing was moved.",
					displayPath(o.Dir), toParts[0], to, from))
		}
	}
	done, before, after, err := editState(ctx, o, "state mv", func(st *state.State) ([]entryMove, diag.Diagnostics) {
		moves := movesUnder(st, fromParts, toParts)
		if len(moves) == 0 {
			if len(fromParts) == 3 {
				return nil, diag.Diagnostics{notInState(from, st)}
			}
			return nil, diag.Diagnostics{diag.AtAddress(from, "Not in the state",
				fmt.Sprintf("The state records no compute under %s (%s)%s", from, someAddresses(st), unquotedKeyHint(from)))}
		}
		if toProject != nil {
			if ds := projectMoveRefusals(from, to, moves, toProject); len(ds) > 0 {
				return nil, saying(ds, "Nothing was moved.")
			}
		}
		var ds diag.Diagnostics
		for _, m := range moves {
			if err := st.Move(m.from, m.to); err != nil {
				ds = append(ds, diagnosticsOf(err)...)
			}
		}
		if len(ds) > 0 {
			return nil, saying(ds, "Nothing was moved.")
		}
		return moves, nil
	})
	if err != nil {
		return err
	}
	e := edited(o, done, before, after)
	e.Move, e.From, e.To, e.One = true, from, to, len(fromParts) == 3
	views.WriteStateEdit(o.Stdout, e, a.context())
	return nil
}

// projectMoveRefusals are the refusals of moves into the project block
// toProject (config.ProjectMoveRefusal, the rule moved blocks follow too):
// one for each project of the entries that is not that block's, on FROM
// for the computes under it, or on the one compute.
func projectMoveRefusals(from, to string, moves []entryMove, toProject *config.Project) diag.Diagnostics {
	var projects []string
	byProject := map[string][]entryMove{}
	for _, m := range moves {
		p := m.entry.ProjectID
		if byProject[p] == nil {
			projects = append(projects, p)
		}
		byProject[p] = append(byProject[p], m)
	}
	var ds diag.Diagnostics
	for _, p := range projects {
		group := byProject[p]
		subject, target := from, to
		var entries []string
		if len(group) == 1 {
			subject, target = group[0].from, group[0].to
		} else {
			for _, m := range group {
				entries = append(entries, m.from)
			}
		}
		if why, cmds := config.ProjectMoveRefusal(subject, target, p, toProject.ID, entries...); why != "" {
			d := diag.AtAddress(subject, "Move across projects", why)
			d.Suggestions = cmds
			ds = append(ds, d)
		}
	}
	return ds
}

// movePrefixes checks state mv's FROM and TO: two addresses of the same
// kind (two computes, two branches or two projects), not the same.
func movePrefixes(from, to string) (fromParts, toParts []string, ds diag.Diagnostics) {
	fromParts, err := config.ParsePartialAddress(from)
	if err != nil {
		ds = append(ds, diag.AtAddress(from, "Invalid address", err.Error()+unquotedKeyHint(from)))
	}
	toParts, err = config.ParsePartialAddress(to)
	if err != nil {
		ds = append(ds, diag.AtAddress(to, "Invalid address", err.Error()+unquotedKeyHint(to)))
	}
	kinds := []string{"", "a project", "a branch", "a compute"}
	switch {
	case len(ds) > 0:
	case len(fromParts) != len(toParts):
		ds = append(ds, diag.AtAddress(to, "Move to another kind of address",
			fmt.Sprintf("%s is %s and %s is %s: state mv moves a compute to a compute address, every compute of a branch to another branch, or every compute of a project to another project", from, kinds[len(fromParts)], to, kinds[len(toParts)])))
	case from == to:
		ds = append(ds, diag.AtAddress(to, "Move to the same address", fmt.Sprintf("FROM and TO are both %s, so nothing moves", to)))
	}
	return fromParts, toParts, ds
}

// movesUnder lists the entries of st under the address parts from, each
// with its address under to (the same parts after them), in address
// order. A compute address moves that entry alone; a branch or a project
// moves every entry under it, with the old endpoints of replacements an
// apply left behind (deposed).
func movesUnder(st *state.State, from, to []string) []entryMove {
	var out []entryMove
	for _, addr := range st.Addresses() {
		rest, under := underPrefix(addr, from)
		if !under || (len(from) == 3 && addr != strings.Join(from, ".")) {
			continue
		}
		out = append(out, entryMove{from: addr, to: strings.Join(to, ".") + rest, entry: st.Computes[addr]})
	}
	return out
}

// underPrefix reports whether the state address addr is under the address
// parts prefix, part for part (a move keeps the keys: unlike diff.Covers, a
// part without a key is not its block's every instance), and what follows
// them in it (".main.primary", or "[deposed:ep-...]" after a compute).
func underPrefix(addr string, prefix []string) (rest string, under bool) {
	base, _, deposed := state.Deposed(addr)
	if !deposed {
		base = addr
	}
	parts, err := config.ParsePartialAddress(base)
	if err != nil || len(parts) < len(prefix) || !slices.Equal(parts[:len(prefix)], prefix) {
		return "", false
	}
	joined := strings.Join(prefix, ".")
	return addr[len(joined):], true
}

// projectBlock is the project block (or for_each instance) with the address
// part label, or nil.
func projectBlock(cfg *config.Config, label string) *config.Project {
	for _, p := range cfg.Projects {
		if p.Label == label {
			return p
		}
	}
	return nil
}

// diagnosticsOf is the diagnostics an error carries (a *diag.Error), or
// the error as one diagnostic without a subject.
func diagnosticsOf(err error) diag.Diagnostics {
	var de *diag.Error
	if errors.As(err, &de) {
		return slices.Clone(de.Diagnostics)
	}
	return diag.Diagnostics{{Severity: diag.SeverityError, Summary: "Cannot move", Detail: err.Error()}}
}
