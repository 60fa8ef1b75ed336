package command

import (
	"context"
	"fmt"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state/pgbudget"
)

// shareBudget gives a run whose state is in Postgres the account's rate
// budget kept there (state/pgbudget), so that the runs of one account share
// the service's limits; other runs keep their own. It returns what to close
// at the end of the run.
func shareBudget(cfg *config.Config, opts *api.Options) (func(), error) {
	if opts.RatePerMinute < 0 || !postgresState(cfg.Settings.StatePath) {
		return func() {}, nil
	}
	b, err := pgbudget.Open(context.Background(), cfg.Settings.StatePath, pgbudget.Account(opts.BaseURL, opts.APIKey), opts.Limits())
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	opts.Budget = b
	return b.Close, nil
}
