package lsp

import (
	"context"
	"os"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/state"
)

// localState is the configuration's state when it is a file on this
// machine that can be read; nil otherwise. A state kept in Postgres is
// never read: the server opens no connection.
func localState(cfg *config.Config) *state.State {
	if cfg == nil || config.PostgresState(cfg.Settings.StatePath) {
		return nil
	}
	path := cfg.StateFile()
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	st, err := state.NewLocal(path).Read(context.Background())
	if err != nil {
		return nil
	}
	return st
}
