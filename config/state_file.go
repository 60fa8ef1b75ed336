package config

import (
	"path/filepath"
	"strings"
)

// PostgresState reports whether the neonform block's state setting is a
// Postgres URL (the state kept in a database) rather than a file's path.
func PostgresState(setting string) bool {
	return strings.HasPrefix(setting, "postgres://") || strings.HasPrefix(setting, "postgresql://")
}

// StateFile is the path of the configuration's state file: the state
// setting, relative to Dir unless absolute, or the default. It says nothing
// of a Postgres state (PostgresState).
func (c *Config) StateFile() string {
	p := c.Settings.StatePath
	if p == "" {
		p = DefaultStatePath
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}
