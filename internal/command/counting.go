package command

import (
	"context"
	"sync/atomic"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/fetch"
)

// countingReader counts the API reads a plan makes, for the plan's first line.
type countingReader struct {
	fetch.Reader
	calls atomic.Int64
}

func (c *countingReader) ListEndpointSummaries(ctx context.Context, projectID string) ([]api.EndpointSummary, error) {
	c.calls.Add(1)
	return c.Reader.ListEndpointSummaries(ctx, projectID)
}

func (c *countingReader) ListBranches(ctx context.Context, projectID string) ([]api.Branch, error) {
	c.calls.Add(1)
	return c.Reader.ListBranches(ctx, projectID)
}
