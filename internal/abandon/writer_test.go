package abandon_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/neonform/neonform/internal/abandon"
)

// Writes go through until the context is done, and none after: the one
// that finds it done says why.
func TestWriterStopsAtTheFirstWriteAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	w := abandon.Writer(ctx, &out)
	if _, err := io.WriteString(w, "before "); err != nil {
		t.Fatal(err)
	}
	cancel()
	n, err := io.WriteString(w, "after")
	if !errors.Is(err, context.Canceled) || n != 0 {
		t.Errorf("a write after the cancel: %d, %v; want 0, context.Canceled", n, err)
	}
	if out.String() != "before " {
		t.Errorf("written: %q, want only what came before the cancel", out.String())
	}
}
