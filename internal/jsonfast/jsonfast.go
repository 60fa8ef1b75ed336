// Package jsonfast decodes the kinds of JSON a large plan reads most of
// (the service's lists of endpoints, the state, and the plan file, which
// the planner reads back to check it) with encoding/json/v2's
// decoder: twice as fast as encoding/json, with a third of its allocations
// (a state of 100,000 computes: 0.15 s and 29 MB against 0.34 s and 104 MB;
// docs/PERFORMANCE.md). The module github.com/go-json-experiment/json is
// the standard library's encoding/json/v2 until Go 1.27 makes it stable;
// then this imports that instead.
//
// It only ever takes the fast path when the result is the one
// encoding/json would give: it reports false for anything v2 reads
// differently or refuses (duplicate names, invalid UTF-8, a syntax error, a
// value of the wrong type, trailing data), and the caller then decodes with
// encoding/json as before, so that neonform's messages about a bad state or
// a bad answer, and encoding/json's leniency, stay exactly what they were.
package jsonfast

import (
	"errors"
	"reflect"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Decode decodes data into v, a non-nil pointer, and reports whether it
// did. With rejectUnknown, a member that no field of a struct takes is a
// refusal (encoding/json's Decoder.DisallowUnknownFields). When it reports
// false, *v is zero again (v2 may have filled part of it), ready for
// encoding/json.
func Decode(data []byte, v any, rejectUnknown bool) bool {
	return decode(data, v, rejectUnknown) == nil
}

// decode is Decode with more options, and the decoder's error.
func decode(data []byte, v any, rejectUnknown bool, more ...jsonv2.Options) error {
	if !isPointer(v) {
		return errNotPointer // encoding/json's to refuse
	}
	opts := append([]jsonv2.Options{
		// encoding/json matches names without regard to case, preferring
		// the exact one: so must the fast path, or "ID" would be dropped
		// where encoding/json sets the id. But not without regard to "_"
		// and "-", as v2 would ("formatversion" is not format_version).
		jsonv2.MatchCaseInsensitiveNames(true), jsonv1.MatchCaseSensitiveDelimiter(true),
		jsonv2.RejectUnknownMembers(rejectUnknown)}, more...)
	err := jsonv2.Unmarshal(data, v, opts...)
	if err != nil {
		reflect.ValueOf(v).Elem().SetZero()
	}
	return err
}

var errNotPointer = errors.New("jsonfast: not a non-nil pointer")
