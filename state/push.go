package state

import (
	"bytes"
	"context"
	"fmt"

	"github.com/neonform/neonform/internal/suggest"
)

// A push replaces a backend's state with one read from elsewhere (a file
// that `neonform state pull` wrote from another backend), keeping its
// lineage and serial, so that plans and applies go on from it as if the
// state had never moved (docs/state.md, "Moving the state").

// Pushed says what a push did.
type Pushed struct {
	// Replaced: a state was stored before (its lineage, serial and number
	// of computes below); false when the backend held none.
	Replaced       bool
	StoredLineage  string
	StoredSerial   int64
	StoredComputes int
	// Serial is the serial stored now.
	Serial int64
	// Unchanged: the backend already held this very state; nothing was written.
	Unchanged bool
	// Forced names the check that -force overrode, "" when none did.
	Forced string
}

// PushRefusedError is a push that would lose or confuse what the backend
// holds: another state (lineage), or an older one (serial). Nothing was
// written.
type PushRefusedError struct {
	Backend string // Describe() of the backend
	// Reason says what differs, in a clause: "it holds lineage X, not Y".
	Reason string
}

func (e *PushRefusedError) Error() string {
	return fmt.Sprintf("refusing to replace %s: %s; nothing was written", e.Backend, e.Reason)
}

// Pusher is a backend a state can be pushed to: Local and Postgres. Push
// stores s, with its lineage and serial, in place of the stored state, in
// one write (the caller holds the lock). Unless force, it refuses with a
// *PushRefusedError what pushCheck refuses.
type Pusher interface {
	Backend
	Push(ctx context.Context, s *State, force bool) (Pushed, error)
}

var (
	_ Pusher = (*Local)(nil)
	_ Pusher = (*Postgres)(nil)
)

// Push stores s in place of the state file (see Pusher).
func (l *Local) Push(ctx context.Context, s *State, force bool) (Pushed, error) {
	return push(ctx, l, s, force)
}

// Push stores s in place of the state's row (see Pusher).
func (p *Postgres) Push(ctx context.Context, s *State, force bool) (Pushed, error) {
	return push(ctx, p, s, force)
}

func push(ctx context.Context, b storing, s *State, force bool) (Pushed, error) {
	var out Pushed
	err := b.store(ctx, func(stored *State, exists bool) (next *State, err error) {
		next, out, err = pushed(b.Describe(), stored, exists, s, force)
		return next, err
	})
	return out, err
}

// pushed decides a push of s over stored: what to store (nil: nothing) and
// what that does. A backend that holds no state, or one that records no
// compute, takes any state, as Terraform's push does: nothing is lost. Over
// one that records computes, s must be of its lineage, and newer: a higher
// serial, or the same serial and the very same content (then nothing is
// written). force stores s all the same. A serial never goes back within a
// lineage: s stored over an equal or higher serial of its lineage (forced,
// or over a state without computes) gets the serial after the stored one,
// so that apply refuses as stale every plan saved against either.
func pushed(backend string, stored *State, exists bool, s *State, force bool) (*State, Pushed, error) {
	out := Pushed{Replaced: exists, StoredLineage: stored.Lineage, StoredSerial: stored.Serial, StoredComputes: len(stored.Computes)}
	if err := s.Validate(); err != nil {
		return nil, out, fmt.Errorf("refusing to replace %s: %w", backend, err)
	}
	if s.Serial < 1 {
		return nil, out, &PushRefusedError{Backend: backend, Reason: fmt.Sprintf("the pushed state has serial %d, and every state neonform writes has a serial of 1 or more", s.Serial)}
	}
	next := s.Clone()
	next.FormatVersion = FormatVersion
	if exists && stored.Lineage == s.Lineage && stored.Serial == s.Serial && sameContent(stored, next) {
		out.Unchanged, out.Serial = true, stored.Serial
		return nil, out, nil
	}
	if exists && len(stored.Computes) > 0 {
		reason := ""
		switch {
		case stored.Lineage != s.Lineage:
			reason = fmt.Sprintf("it holds lineage %s, and the pushed state lineage %s: they are two different states", stored.Lineage, s.Lineage)
		case s.Serial < stored.Serial:
			reason = fmt.Sprintf("it is at serial %d, newer than the pushed state's %d", stored.Serial, s.Serial)
		case s.Serial == stored.Serial:
			reason = fmt.Sprintf("it is at serial %d too, with other content: one of the two was changed without the other", s.Serial)
		}
		if reason != "" && !force {
			return nil, out, &PushRefusedError{Backend: backend, Reason: reason}
		}
		out.Forced = reason
	}
	if exists && stored.Lineage == s.Lineage && next.Serial <= stored.Serial {
		serial, err := stored.nextSerial()
		if err != nil {
			return nil, out, fmt.Errorf("refusing to replace %s: %w", backend, err)
		}
		next.Serial = serial
	}
	out.Serial = next.Serial
	return next, out, nil
}

// sameContent reports whether two states are the same document, whatever
// the format version the stored one was written in.
func sameContent(stored, next *State) bool {
	a := *stored
	a.FormatVersion = next.FormatVersion
	ea, errA := encode(&a)
	eb, errB := encode(next)
	return errA == nil && errB == nil && bytes.Equal(ea, eb)
}

// Encode is the state as the local backend stores it, and as `neonform
// state pull` prints it: indented JSON, the same state always the same bytes.
func Encode(s *State) ([]byte, error) {
	out := *s
	out.FormatVersion = FormatVersion
	return encode(&out)
}

// Decode reads a state as Encode writes it (what `neonform state push`
// reads): of a format this neonform reads, valid, with nothing unknown.
// source names it in errors.
func Decode(ctx context.Context, data []byte, source string) (*State, error) {
	pull := suggest.Run("state", "pull")
	s, err := decode(ctx, data, source, "write it with "+pull.Quoted())
	if err != nil {
		return nil, suggest.Wrap(err, pull)
	}
	return s, nil
}
