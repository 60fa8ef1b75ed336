package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

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
func decode(data []byte, source, fix string) (*State, error) {
	if err := checkSize(len(data), source); err != nil {
		return nil, err
	}
	// Unknown fields are an error, not ignored: reading and then writing the
	// state would silently drop them.
	var s State
	var err error
	trailing := false
	// A sound state takes the fast path (a state of 100,000 computes in less
	// than half the time, with a third of the allocations); one it declines
	// is read as it always was, for the same result or the same message.
	if !jsonfast.Decode(data, &s, true) {
		// The fast path refuses a name twice; encoding/json would keep
		// the last (addresses.go).
		if err := checkDuplicates(data, source, fix); err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(&s)
		trailing = err == nil && dec.More()
	}
	// A state that decoded, with a version this neonform reads (1 to
	// FormatVersion), needs no second look: checkVersion decodes it all again.
	if err != nil || s.FormatVersion < 1 || s.FormatVersion > FormatVersion {
		if verr := checkVersion(data, source, fix); verr != nil {
			return nil, verr
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s does not have the shape of a neonform state (%s); it was left untouched: %s", source, jsonErrorAt(data, err), fix)
	}
	if trailing {
		return nil, fmt.Errorf("%s has more than one JSON value; it was left untouched: %s", source, fix)
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
	shareRepeated(&s)
	return &s, nil
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
