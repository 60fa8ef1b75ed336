package state

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pushBackends are the backends a state can be pushed to, each new and
// empty, for one subtest.
var pushBackends = map[string]func(t *testing.T) Pusher{
	"local":    func(t *testing.T) Pusher { return NewLocal(statePath(t)) },
	"postgres": func(t *testing.T) Pusher { p, _, _ := newTestPostgres(t); return p },
}

// stored writes s to b as Write would at s's serial: the state b holds.
func storedAt(t *testing.T, b Pusher, s *State) {
	t.Helper()
	if _, err := b.Push(context.Background(), s, true); err != nil {
		t.Fatal(err)
	}
}

func readBack(t *testing.T, b Backend) *State {
	t.Helper()
	got, err := b.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A pushed state is stored with its lineage and serial, and writes go on
// from it: moving a state between backends loses nothing.
func TestPushKeepsLineageAndSerial(t *testing.T) {
	for name, newBackend := range pushBackends {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b := newBackend(t)
			s := sampleState()
			s.Serial = 7
			res, err := b.Push(ctx, s, false)
			if err != nil {
				t.Fatal(err)
			}
			if res.Replaced || res.Serial != 7 || res.Forced != "" || res.Unchanged {
				t.Errorf("Push into an empty backend = %+v, want serial 7, nothing replaced or forced", res)
			}
			got := readBack(t, b)
			if diff := cmp.Diff(s, got); diff != "" {
				t.Errorf("state read back differs (-pushed +read):\n%s", diff)
			}
			if err := b.Write(ctx, got); err != nil || got.Serial != 8 {
				t.Errorf("Write after the push: %v, serial %d; want serial 8", err, got.Serial)
			}

			// The same state again: nothing to write.
			res, err = b.Push(ctx, readBack(t, b), false)
			if err != nil || !res.Unchanged || res.Serial != 8 {
				t.Errorf("Push of the state stored = %+v, %v; want unchanged at serial 8", res, err)
			}
		})
	}
}

// Over a state that records computes, only a newer state of its lineage is
// pushed; anything else is refused and nothing written, unless forced.
func TestPushRefusesAnotherOrAnOlderState(t *testing.T) {
	older := func(base *State) *State { s := base.Clone(); s.Serial = base.Serial - 1; return s }
	otherLineage := func(base *State) *State { s := sampleState(); s.Serial = base.Serial + 5; return s }
	sameSerialOtherContent := func(base *State) *State {
		s := base.Clone()
		delete(s.Computes, "shop.dev.reporting")
		return s
	}
	cases := []struct {
		name   string
		make   func(base *State) *State
		reason string
		// serial the forced push stores: the pushed one, or the one after
		// the stored (10) when the pushed would not be newer in its lineage.
		forcedSerial int64
	}{
		{"lower serial", older, "it is at serial 10, newer than the pushed state's 9", 11},
		{"another lineage", otherLineage, "it holds lineage", 15},
		{"same serial, other content", sameSerialOtherContent, "it is at serial 10 too, with other content", 11},
	}
	for name, newBackend := range pushBackends {
		for _, c := range cases {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				ctx := context.Background()
				b := newBackend(t)
				base := sampleState()
				base.Serial = 10
				storedAt(t, b, base)
				pushed := c.make(base)

				_, err := b.Push(ctx, pushed, false)
				var refused *PushRefusedError
				if !errors.As(err, &refused) || !strings.Contains(refused.Reason, c.reason) {
					t.Fatalf("Push = %v, want a *PushRefusedError saying %q", err, c.reason)
				}
				if diff := cmp.Diff(base, readBack(t, b)); diff != "" {
					t.Errorf("a refused push changed the state (-before +after):\n%s", diff)
				}

				res, err := b.Push(ctx, pushed, true)
				if err != nil || !strings.Contains(res.Forced, c.reason) || res.Serial != c.forcedSerial {
					t.Fatalf("forced Push = %+v, %v; want it forced over %q at serial %d", res, err, c.reason, c.forcedSerial)
				}
				got := readBack(t, b)
				want := pushed.Clone()
				want.Serial = c.forcedSerial
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("forced state read back differs (-pushed +read):\n%s", diff)
				}
			})
		}
	}
}

// A newer state of the lineage is pushed as it is; so is any state over one
// that records no compute (nothing is lost), but a serial never goes back
// within a lineage.
func TestPushTakesANewerStateOrReplacesAnEmptyOne(t *testing.T) {
	for name, newBackend := range pushBackends {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			b := newBackend(t)
			base := sampleState()
			base.Serial = 3
			storedAt(t, b, base)
			newer := base.Clone()
			newer.Serial = 9
			delete(newer.Computes, "shop.main.primary")
			if res, err := b.Push(ctx, newer, false); err != nil || res.Serial != 9 || !res.Replaced || res.StoredComputes != 2 {
				t.Fatalf("Push of a newer state = %+v, %v; want serial 9, replacing 2 computes", res, err)
			}

			empty := newer.Clone()
			empty.Computes = map[string]*Compute{}
			empty.Serial = 10
			storedAt(t, b, empty)
			other := sampleState()
			other.Serial = 2
			if res, err := b.Push(ctx, other, false); err != nil || res.Serial != 2 {
				t.Fatalf("Push over a state without computes = %+v, %v; want it stored at its serial 2", res, err)
			}

			storedAt(t, b, empty) // serial 10 of the lineage again
			sameLineage := empty.Clone()
			sameLineage.Serial = 4
			sameLineage.Computes = sampleState().Computes
			if res, err := b.Push(ctx, sameLineage, false); err != nil || res.Serial != 11 {
				t.Fatalf("Push of serial 4 over serial 10 of its lineage, without computes = %+v, %v; want serial 11", res, err)
			}
		})
	}
}

func TestPushRefusesSerialZero(t *testing.T) {
	s := sampleState()
	var refused *PushRefusedError
	if _, err := NewLocal(statePath(t)).Push(context.Background(), s, true); !errors.As(err, &refused) {
		t.Errorf("Push at serial 0 = %v, want a *PushRefusedError even with force", err)
	}
}

// What pull prints, push reads back, and it is what the file backend stores.
func TestEncodeIsTheStateFile(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	s := sampleState()
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	encoded, err := Encode(readBack(t, l))
	if err != nil {
		t.Fatal(err)
	}
	if string(encoded) != string(onDisk) {
		t.Errorf("Encode differs from the state file:\n%s\nfile:\n%s", encoded, onDisk)
	}
	back, err := Decode(context.Background(), encoded, "pulled")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, back); diff != "" {
		t.Errorf("decoded state differs (-written +decoded):\n%s", diff)
	}
	if _, err := Decode(context.Background(), []byte(`{"format_version": 3}`), "pulled.json"); err == nil || !strings.Contains(err.Error(), "pulled.json") {
		t.Errorf("Decode of a state without lineage = %v, want an error naming pulled.json", err)
	}
}
