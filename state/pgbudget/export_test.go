package pgbudget

// Conns is how many connections the budget's pool holds now.
func (b *Budget) Conns() int32 { return b.pool.Stat().TotalConns() }
