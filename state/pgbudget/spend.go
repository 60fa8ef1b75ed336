package pgbudget

import (
	"context"
	"fmt"
	"time"
)

// Spend takes a request on route out of the account's budget, or says how
// long to wait; done records when its answer came back. The asks of a route
// that wait together go in one statement (state/internal/spendbatch).
func (b *Budget) Spend(ctx context.Context, route string) (func(), time.Duration, error) {
	return b.asks.Spend(ctx, route)
}

// answeredAside records request id's answer aside: the run need not wait
// for it, and until it is recorded the request counts as unanswered, which
// errs on the safe side.
func (b *Budget) answeredAside(id int64) { go b.answered(id) }

// spendMany takes up to n requests on route in one statement: the ids of
// those taken, and how long the rest wait.
func (b *Budget) spendMany(route string, n int) ([]int64, time.Duration, error) {
	// Not an ask's context: the statement serves every ask of the batch.
	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	minute, second := b.limits.Windows()
	var ids []int64
	var waitMS float64
	var unspent int32
	err := b.pool.QueryRow(ctx, `SELECT spent_ids, wait_ms, unspent FROM neonform_rate_spend_many($1, $2, $3, $4, $5, $6, $7, $8)`,
		b.account, route, b.perMinute, b.perRoute, minute, second, stale, n).Scan(&ids, &waitMS, &unspent)
	if err != nil {
		return nil, 0, fmt.Errorf("the rate budget's database: %w", err)
	}
	b.unspent.Store(int64(unspent))
	return ids, time.Duration(waitMS * float64(time.Millisecond)), nil
}
