package pgbudget

// Conns is how many connections the budget's pool holds now.
func (b *Budget) Conns() int32 { return b.pool.Stat().TotalConns() }

// Statements is how many spend statements the budget sent.
func (b *Budget) Statements() int64 { return b.asks.Spends() }

// Queued is how many asks of route wait for the route's next statement.
func (b *Budget) Queued(route string) int { return b.asks.Queued(route) }
