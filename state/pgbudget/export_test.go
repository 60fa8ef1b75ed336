package pgbudget

// Conns is how many connections the budget's pool holds now.
func (b *Budget) Conns() int32 { return b.pool.Stat().TotalConns() }

// Statements is how many spend statements the budget sent.
func (b *Budget) Statements() int64 { return b.statements.Load() }

// Queued is how many asks of route wait for the route's next statement.
func (b *Budget) Queued(route string) int {
	b.spends.mu.Lock()
	defer b.spends.mu.Unlock()
	if q := b.spends.next[route]; q != nil {
		return q.n
	}
	return 0
}
