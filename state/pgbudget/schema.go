package pgbudget

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/neonform/neonform/internal/pgschema"
)

// The budget's tables, apart from the state's and its locks'. One database
// holds the budgets of many accounts, told apart by Account.
const (
	spendTable = "neonform_rate_spend" // one row a request of the last minute
	pauseTable = "neonform_rate_pause" // one row an account: its 429s and what they taught
)

var createSchema = []string{
	`CREATE TABLE IF NOT EXISTS ` + spendTable + ` (
		id          bigserial PRIMARY KEY,
		account     text NOT NULL,
		route       text NOT NULL,
		sent_at     timestamptz NOT NULL,
		answered_at timestamptz
	)`,
	`CREATE INDEX IF NOT EXISTS ` + spendTable + `_account ON ` + spendTable + ` (account, route, sent_at)`,
	`CREATE TABLE IF NOT EXISTS ` + pauseTable + ` (
		account      text PRIMARY KEY,
		paused_until timestamptz NOT NULL,
		slowdowns    integer NOT NULL,  -- 429s in a row, each halving the limits
		slowed_until timestamptz NOT NULL, -- when the limits are whole again
		throttles    bigint NOT NULL,   -- 429s ever seen on the account
		last_route   text NOT NULL,     -- the route of the last
		retry_after  interval NOT NULL  -- and the wait it asked for
	)`,
	// spend_many takes up to p_n requests on a route out of the account's
	// budget at once (a run's requests of one route that asked together), as
	// many as both windows have room for, and says how long the rest wait.
	// It runs as one call, and its statements under a transaction lock of
	// the account, each seeing what the others' committed before it: runs on
	// many machines take their requests one call at a time, on the
	// database's clock, and a run's burst is taken whole or up to the room
	// left, not interleaved with another's. per_minute and per_route are the
	// limits after 0, 1, 2... slowdowns (api.Limits.Slowed), so the rule is
	// the client's.
	`CREATE OR REPLACE FUNCTION neonform_rate_spend_many(p_account text, p_route text,
		per_minute integer[], per_route integer[], p_minute interval, p_second interval, p_stale interval, p_n integer,
		OUT spent_ids bigint[], OUT wait_ms double precision, OUT unspent integer)
	LANGUAGE plpgsql AS $$
	DECLARE
		t timestamptz;
		p ` + pauseTable + `%ROWTYPE;
		n integer := 0;
		lim_m integer;
		lim_r integer;
		w_m double precision;
		w_r double precision;
		count_m integer;
		count_r integer;
		take integer;
	BEGIN
		PERFORM pg_advisory_xact_lock(hashtext('neonform_rate/' || p_account));
		t := clock_timestamp();
		spent_ids := '{}';
		SELECT * INTO p FROM ` + pauseTable + ` WHERE account = p_account;
		IF FOUND AND p.slowed_until > t THEN
			n := least(p.slowdowns, array_length(per_minute, 1) - 1);
		END IF;
		lim_m := per_minute[n + 1];
		lim_r := per_route[n + 1];
		SELECT w.wait_ms, w.held INTO w_m, count_m FROM neonform_rate_window(p_account, NULL, lim_m, p_minute, p_stale, t) w;
		SELECT w.wait_ms, w.held INTO w_r, count_r FROM neonform_rate_window(p_account, p_route, lim_r, p_second, p_stale, t) w;
		wait_ms := greatest(w_m, w_r, CASE WHEN FOUND AND p.paused_until > t THEN extract(epoch FROM p.paused_until - t) * 1000 ELSE 0 END);
		IF wait_ms > 0 THEN
			unspent := greatest(lim_m - count_m, 0);
			RETURN;
		END IF;
		take := least(p_n, lim_m - count_m, lim_r - count_r);
		DELETE FROM ` + spendTable + ` WHERE account = p_account AND route = p_route AND sent_at < t - p_minute - p_stale;
		WITH spent AS (
			INSERT INTO ` + spendTable + ` (account, route, sent_at) SELECT p_account, p_route, t FROM generate_series(1, take) RETURNING id
		) SELECT array_agg(id ORDER BY id) INTO spent_ids FROM spent;
		unspent := greatest(lim_m - count_m - take, 0);
		wait_ms := 0;
		IF take < p_n THEN
			SELECT greatest(m.wait_ms, r.wait_ms) INTO wait_ms
			FROM neonform_rate_window(p_account, NULL, lim_m, p_minute, p_stale, t) m,
				neonform_rate_window(p_account, p_route, lim_r, p_second, p_stale, t) r;
		END IF;
	END $$`,
	// window is how long until one more request fits a window of span ending
	// at t under lim (0: it fits), and how many it holds: those unanswered
	// (for at most p_stale: a run that died never answers), and those
	// answered within it. When room needs one still unanswered to leave, it
	// leaves a span after its answer at the soonest.
	`CREATE OR REPLACE FUNCTION neonform_rate_window(p_account text, p_route text, lim integer, span interval, p_stale interval, t timestamptz,
		OUT wait_ms double precision, OUT held integer)
	LANGUAGE plpgsql AS $$
	DECLARE
		unanswered integer;
		answered timestamptz[];
		over integer;
	BEGIN
		SELECT count(*) FILTER (WHERE answered_at IS NULL),
			coalesce(array_agg(answered_at ORDER BY answered_at) FILTER (WHERE answered_at IS NOT NULL), '{}')
		INTO unanswered, answered
		FROM ` + spendTable + `
		WHERE account = p_account AND (p_route IS NULL OR route = p_route)
			AND sent_at > t - span - p_stale
			AND (answered_at > t - span OR (answered_at IS NULL AND sent_at > t - p_stale));
		held := unanswered + coalesce(array_length(answered, 1), 0);
		over := held - lim + 1;
		IF over <= 0 THEN
			wait_ms := 0;
		ELSIF over <= coalesce(array_length(answered, 1), 0) THEN
			wait_ms := greatest(extract(epoch FROM answered[over] + span - t) * 1000, 0.001);
		ELSE
			wait_ms := extract(epoch FROM span) * 1000;
		END IF;
	END $$`,
}

// ensureSchema creates the tables and functions unless the functions exist.
func ensureSchema(ctx context.Context, pool *pgxpool.Pool) error {
	return pgschema.Ensure(ctx, pool, "neonform_rate tables", createSchema,
		`SELECT to_regprocedure('neonform_rate_window(text,text,integer,interval,interval,timestamptz)') IS NOT NULL
		AND to_regproc('neonform_rate_spend_many') IS NOT NULL`)
}
