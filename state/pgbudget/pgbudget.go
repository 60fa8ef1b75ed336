// Package pgbudget is the account's rate budget (api.Budget) kept in a
// Postgres database, so that the runs on one account that share a Postgres
// state, on one machine or many, share the service's limits too: together
// they stay within 700 requests a minute and 40 a second a route, and a 429
// any of them meets pauses them all.
package pgbudget

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/state/internal/spendbatch"
)

// stale is how long a request sent and never answered counts: a run that
// died while it was in flight frees its share after that.
const stale = 2 * time.Minute

// statementTimeout bounds a statement of the budget's: a database that does
// not answer fails the requests waiting for it rather than hanging the run.
const statementTimeout = 10 * time.Second

// poolConns is how many connections a run keeps to the budget's database.
// Spends take the account's lock one at a time, so more would not spend
// faster, and each connection opened costs a server process's start (tens
// of milliseconds on a busy machine): with eight, a run's first burst of
// reads opened all eight at once, and held its own reads back by a quarter
// of a second, three runs starting together theirs by most of a second
// (docs/PERFORMANCE.md, Runs on one account at once). Two: one spends while
// the other records answers.
const poolConns = 2

// Budget is an account's budget in a database. Safe for concurrent use.
type Budget struct {
	pool    *pgxpool.Pool
	account string
	limits  api.Limits
	// perMinute and perRoute are the limits after 0, 1, 2... 429s in a row.
	perMinute, perRoute []int32
	unspent             atomic.Int64
	asks                *spendbatch.Asks // a statement a route's asks that wait together
	answers             answers
}

var _ api.Budget = (*Budget)(nil)

// Account names an account's budget without its key: a hash of the API URL
// and the key, so that the database never holds a key, and two keys of one
// account (which the service counts together) may still draw on two budgets
// (a conservative reading would need the account's id, which costs a call).
func Account(apiURL, key string) string {
	sum := sha256.Sum256([]byte("neonform rate budget\x00" + apiURL + "\x00" + key))
	return hex.EncodeToString(sum[:16])
}

// Open connects to the database at dsn and creates the budget's tables if
// they are missing. Close releases its connections.
func Open(ctx context.Context, dsn, account string, limits api.Limits) (*Budget, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// The parse error may quote the connection string, password included.
		return nil, errors.New("cannot parse the Postgres connection string of the rate budget (not shown: it may hold a password)")
	}
	cfg.MaxConns = poolConns
	cfg.ConnConfig.RuntimeParams["application_name"] = "neonform"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("the rate budget's database: %w", err)
	}
	if err := ensureSchema(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("creating the rate budget's tables: %w; the user needs CREATE on the schema", err)
	}
	b := &Budget{pool: pool, account: account, limits: limits}
	b.asks = spendbatch.New(b.spendMany, b.answeredAside)
	for n := 0; ; n++ {
		l := limits.Slowed(n)
		if n > 0 && l == limits.Slowed(n-1) {
			break
		}
		b.perMinute = append(b.perMinute, int32(l.PerMinute))
		b.perRoute = append(b.perRoute, int32(l.PerRoute))
	}
	b.unspent.Store(int64(limits.PerMinute))
	return b, nil
}

// Close releases the budget's connections.
func (b *Budget) Close() { b.pool.Close() }

// Throttled records a 429 for every run of the account: they all pause for
// wait, and the limits halve until a minute after the pause.
func (b *Budget) Throttled(ctx context.Context, route string, wait time.Duration) error {
	_, err := b.pool.Exec(ctx, `INSERT INTO `+pauseTable+` AS p VALUES ($1, clock_timestamp() + $2, 1, clock_timestamp() + $2 + $3, 1, $4, $2)
		ON CONFLICT (account) DO UPDATE SET
			paused_until = greatest(p.paused_until, excluded.paused_until),
			slowdowns = CASE WHEN p.slowed_until < clock_timestamp() THEN 1 ELSE p.slowdowns + 1 END,
			slowed_until = greatest(p.slowed_until, excluded.slowed_until),
			throttles = p.throttles + 1, last_route = excluded.last_route, retry_after = excluded.retry_after`,
		b.account, wait, b.limits.Minute, route)
	if err != nil {
		return fmt.Errorf("the rate budget's database: %w", err)
	}
	return nil
}

// Unspent is what was left of the account's minute at the last spend.
func (b *Budget) Unspent() int { return int(b.unspent.Load()) }

// Throttles is how many 429s the account's runs have recorded, all told.
func (b *Budget) Throttles(ctx context.Context) (int64, error) {
	var n int64
	err := b.pool.QueryRow(ctx, `SELECT throttles FROM `+pauseTable+` WHERE account = $1`, b.account).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	return n, err
}
