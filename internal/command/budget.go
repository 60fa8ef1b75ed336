package command

import (
	"context"
	"fmt"
	"io"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state/filebudget"
	"github.com/neonform/neonform/state/pgbudget"
)

// shareBudget gives a run the account's rate budget shared with the other
// runs on it: kept in the database when the state is in Postgres
// (state/pgbudget), else in a file of the user's cache directory that the
// runs on this machine share (state/filebudget; one that cannot be used is
// said once on notes, and the run keeps its own). It returns what to close at
// the end of the run.
func shareBudget(cfg *config.Config, opts *api.Options, notes io.Writer) (func(), error) {
	if opts.RatePerMinute < 0 {
		return func() {}, nil
	}
	if !postgresState(cfg.Settings.StatePath) {
		warn := func(msg string) {
			if notes != nil {
				fmt.Fprintln(notes, msg)
			}
		}
		b := filebudget.OpenAccount(opts.BaseURL, opts.APIKey, opts.Limits(), warn)
		opts.Budget = b
		return b.Close, nil
	}
	b, err := pgbudget.Open(context.Background(), cfg.Settings.StatePath, pgbudget.Account(opts.BaseURL, opts.APIKey), opts.Limits())
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	opts.Budget = b
	return b.Close, nil
}
