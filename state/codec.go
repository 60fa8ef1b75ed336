package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/neonform/neonform/internal/abandon"
	"github.com/neonform/neonform/internal/jsonfast"
)

// encode renders s as the state file: indented, keys in a fixed order (struct
// fields as declared, map keys sorted by encoding/json), trailing newline, so
// the same state is the same bytes and a diff of two states is readable.
func encode(s *State) ([]byte, error) {
	out := *s
	if out.Computes == nil {
		out.Computes = map[string]*Compute{} // "{}" rather than "null"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // pg_settings values stay readable: "a<b", not "a\u003cb"
	if err := enc.Encode(&out); err != nil {
		return nil, fmt.Errorf("encoding state: %w", err)
	}
	return buf.Bytes(), nil
}

// decode parses a stored state. source names where it came from and fix says
// how to repair it; both go into every error, since the user has to find the
// file to do anything about it. decode never changes what is stored.
//
// The state is decoded once, strictly; only when that fails, or the version
// is not this neonform's, is the format_version looked at on its own, so
// that a newer state is reported as newer rather than as misshapen.
//
// Once ctx is done (an interrupt) decode stops with ctx's error: the fast
// path looks every jsonfast.LookEvery computes, and the rest, which
// encoding/json does for a state the fast path declines, is abandoned
// (internal/abandon). A state of 250,000 computes takes seconds of CPU.
func decode(ctx context.Context, data []byte, source, fix string) (*State, error) {
	if err := checkSize(len(data), source); err != nil {
		return nil, err
	}
	s, fast, err := decodeFast(ctx, data)
	if err != nil {
		return nil, err
	}
	// A state that decoded, with a version this neonform reads (1 to
	// FormatVersion), needs no second look: checkVersion decodes it all again.
	if !fast || s.FormatVersion < 1 || s.FormatVersion > FormatVersion {
		slow, err := abandon.Call(ctx, func() decoded { return decodeSlow(data, source, fix, fast, s) })
		if err != nil {
			return nil, err
		}
		if slow.err != nil {
			return nil, slow.err
		}
		s = slow.s
	}
	if s.Computes == nil {
		s.Computes = map[string]*Compute{}
	}
	if err := checkComputes(len(s.Computes), source); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	shareRepeated(s)
	return s, nil
}

// decodeFast is the fast path (internal/jsonfast): a state of 100,000
// computes in less than half the time of encoding/json, with a third of
// the allocations. ok is false when it declines the state; err is ctx's
// error when it was interrupted. Past MaxComputes, computes are counted,
// not decoded: checkComputes refuses the state with their number.
func decodeFast(ctx context.Context, data []byte) (s *State, ok bool, err error) {
	s = &State{}
	n, interrupted := 0, jsonfast.Interrupted(ctx)
	each := jsonfast.Every[Compute](func() error {
		if err := interrupted(); err != nil {
			return err
		}
		if n++; n > MaxComputes {
			return jsonfast.ErrSkip
		}
		return nil
	})
	// Unknown fields are an error, not ignored: reading and then writing
	// the state would silently drop them.
	ok, err = jsonfast.DecodeLooking(data, s, true, each)
	return s, ok, err
}

type decoded struct {
	s   *State
	err error
}

// decodeSlow reads a state as it always was, for the same result or the
// same message: with encoding/json when the fast path declined it (fast is
// false), and with its format_version looked at on its own when it does
// not decode or its version is not one this neonform reads.
func decodeSlow(data []byte, source, fix string, fast bool, s *State) decoded {
	var err error
	trailing := false
	if !fast {
		// The fast path refuses a name twice; encoding/json would keep
		// the last (addresses.go).
		if err := checkDuplicates(data, source, fix); err != nil {
			return decoded{err: err}
		}
		s = &State{}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(s)
		trailing = err == nil && dec.More()
	}
	if err != nil || s.FormatVersion < 1 || s.FormatVersion > FormatVersion {
		if verr := checkVersion(data, source, fix); verr != nil {
			return decoded{err: verr}
		}
	}
	if err != nil {
		return decoded{err: fmt.Errorf("%s does not have the shape of a neonform state (%s); it was left untouched: %s", source, jsonErrorAt(data, err), fix)}
	}
	if trailing {
		return decoded{err: fmt.Errorf("%s has more than one JSON value; it was left untouched: %s", source, fix)}
	}
	return decoded{s: s}
}

// shareRepeated makes the entries share the strings they repeat (their
// project, branch, type and branch name), which encoding/json allocates for
// each: with 100,000 entries in 10,000 projects, 7 MB less held while a plan
// is made.
func shareRepeated(s *State) {
	seen := map[string]string{}
	share := func(p *string) {
		if v, ok := seen[*p]; ok {
			*p = v
		} else {
			seen[*p] = *p
		}
	}
	for _, c := range s.Computes {
		share(&c.ProjectID)
		share(&c.BranchID)
		share((*string)(&c.Type))
		share(&c.BranchName)
	}
}

// checkVersion explains a state this neonform cannot read because of its
// format_version (or because it is not JSON at all); nil when the version is
// one it reads.
func checkVersion(data []byte, source, fix string) error {
	var probe struct {
		FormatVersion *int `json:"format_version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return fmt.Errorf("%s is not valid JSON (%s); it was left untouched: %s", source, jsonErrorAt(data, err), fix)
	}
	switch v := probe.FormatVersion; {
	case v == nil:
		return fmt.Errorf("%s has no format_version, so it is not a neonform state; it was left untouched: %s", source, fix)
	case *v > FormatVersion:
		return fmt.Errorf("%s has format_version %d, written by a newer neonform; this one reads up to %d: upgrade neonform to use this state", source, *v, FormatVersion)
	case *v < 1:
		return fmt.Errorf("%s has format_version %d, which no neonform writes; it was left untouched: %s", source, *v, fix)
	}
	return nil
}

// jsonErrorAt adds the line and column to a JSON error, when it has an offset.
func jsonErrorAt(data []byte, err error) string {
	var offset int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	}
	msg := err.Error()
	if offset < 0 || offset > int64(len(data)) {
		return msg
	}
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - (bytes.LastIndexByte(before, '\n') + 1)
	return fmt.Sprintf("line %d, column %d: %s", line, col, msg)
}
