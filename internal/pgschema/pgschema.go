// Package pgschema creates the tables (and functions) a part of neonform
// keeps in a Postgres database, once: the state backend's and the shared
// rate budget's.
package pgschema

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// DB is a connection or a pool (*pgx.Conn, *pgxpool.Pool).
type DB interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
}

// Ensure runs create unless exists (a query of one boolean, with args)
// says it has run. Concurrent first runs would race in CREATE ... IF NOT
// EXISTS (a unique violation in pg_type), so create runs in a transaction
// that holds the advisory lock named lock first.
func Ensure(ctx context.Context, db DB, lock string, create []string, exists string, args ...any) error {
	var done bool
	if err := db.QueryRow(ctx, exists, args...).Scan(&done); err != nil || done {
		return err
	}
	return pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, lock); err != nil {
			return err
		}
		for _, q := range create {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
}
