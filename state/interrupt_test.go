package state

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/neonform/neonform/internal/jsonfast"
)

// countdown is a context cancelled at its nth look (never, when n is 0),
// counting every look.
type countdown struct {
	context.Context
	cancel   context.CancelFunc
	looks, n int
}

func newCountdown(n int) *countdown {
	ctx, cancel := context.WithCancel(context.Background())
	return &countdown{Context: ctx, cancel: cancel, n: n}
}

func (c *countdown) Err() error {
	if c.looks++; c.looks == c.n {
		c.cancel()
	}
	return c.Context.Err()
}

// Reading a large state stops midway once the run is interrupted: the
// decoder looks at the context every jsonfast.LookEvery computes, and the
// look that finds it done is the last (nothing more is decoded, so the
// read returns with the context's error long before the rest of the
// state could have been decoded). Before, decoding a state of 250,000
// computes (3.5 s of CPU) looked at nothing.
func TestReadingALargeStateStopsWhenInterrupted(t *testing.T) {
	const computes = 50 * jsonfast.LookEvery
	path := filepath.Join(t.TempDir(), "neonform.state.json")
	l := NewLocal(path)
	if err := l.Write(context.Background(), bigState(computes)); err != nil {
		t.Fatal(err)
	}
	whole := newCountdown(0)
	if s, err := l.Read(whole); err != nil || len(s.Computes) != computes {
		t.Fatalf("read without an interrupt: %v", err)
	}
	if whole.looks < computes/jsonfast.LookEvery {
		t.Fatalf("the read looked at its context %d times, want one every %d computes (%d)", whole.looks, jsonfast.LookEvery, computes/jsonfast.LookEvery)
	}
	for _, n := range []int{2, whole.looks / 2, whole.looks - 1} {
		ctx := newCountdown(n)
		s, err := l.Read(ctx)
		if !errors.Is(err, context.Canceled) || s != nil {
			t.Fatalf("cancelled at look %d of %d: %v, want context.Canceled", n, whole.looks, err)
		}
		if ctx.looks != n {
			t.Errorf("cancelled at look %d of %d, the read went on to look %d times", n, whole.looks, ctx.looks)
		}
	}
}

// A state the fast path declines (here a setting's value that is not
// UTF-8, which encoding/json reads and encoding/json/v2 refuses) is decoded by
// encoding/json, which looks at nothing: an interrupt then returns at
// once, without waiting for it (internal/abandon).
func TestTheSlowDecodingIsAbandonedWhenInterrupted(t *testing.T) {
	data := tooManyComputes(20 * jsonfast.LookEvery)
	data = bytes.Replace(data, []byte(`"max_cu":1}`), []byte("\"max_cu\":1,\"pg_settings\":{\"work_mem\":\"64MB\xff\"}}"), 1)
	if jsonfast.Decode(data, &State{}, true) {
		t.Fatal("the fast path took the state: the test needs one it declines")
	}
	if s, err := decode(context.Background(), data, "test", ""); err != nil || len(s.Computes) != 20*jsonfast.LookEvery {
		t.Fatalf("read without an interrupt: %v", err)
	}
	fast := newCountdown(0)
	decodeFast(fast, data)
	// Cancelled at the first look after the fast path's, before the slow
	// path starts: it is not started.
	ctx := newCountdown(fast.looks + 1)
	if s, err := decode(ctx, data, "test", ""); !errors.Is(err, context.Canceled) || s != nil {
		t.Fatalf("decode = %v, want context.Canceled", err)
	}
}
