package abandon_test

import (
	"context"
	"errors"
	"testing"

	"github.com/neonform/neonform/internal/abandon"
)

// A call that never ends on its own returns with the context's error once
// the context is cancelled; the call itself is left blocked (it would
// block the caller forever without Call).
func TestCallReturnsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started, never := make(chan struct{}), make(chan struct{})
	defer close(never)
	go func() {
		<-started
		cancel()
	}()
	v, err := abandon.Call(ctx, func() int {
		close(started)
		<-never
		return 1
	})
	if !errors.Is(err, context.Canceled) || v != 0 {
		t.Fatalf("Call = %d, %v; want 0 and context.Canceled", v, err)
	}
}

// A call that ends gives its result; a context already done runs nothing.
func TestCallGivesTheResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []context.Context{ctx, context.Background()} {
		if v, err := abandon.Call(c, func() string { return "parsed" }); v != "parsed" || err != nil {
			t.Errorf("Call = %q, %v; want parsed", v, err)
		}
	}
	cancel()
	ran := false
	if _, err := abandon.Call(ctx, func() bool { ran = true; return true }); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("with ctx done: err %v, ran %v; want context.Canceled and not run", err, ran)
	}
}
