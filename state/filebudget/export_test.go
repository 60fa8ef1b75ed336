package filebudget

// Statements is how many spends the budget sent, each a turn of the file's
// lock.
func (b *Budget) Statements() int64 { return b.asks.Spends() }

// Queued is how many asks of route wait for the route's next spend.
func (b *Budget) Queued(route string) int { return b.asks.Queued(route) }
