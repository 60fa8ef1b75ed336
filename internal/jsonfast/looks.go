package jsonfast

import (
	"context"
	"errors"
	"reflect"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// A Look is called before each value of one type is decoded (Every), so
// that a caller can stop a long decoding midway: a state of 250,000
// computes or a plan of as many steps takes seconds of CPU, and an
// interrupt must not wait for it (docs/apply.md, Interrupting).
type Look struct {
	unmarshalers *jsonv2.Unmarshalers
}

// ErrSkip, returned by a Look's function, reads past the value without
// decoding it (it stays zero): a state past its limit on computes is
// counted to the end, for the message, without decoding what is refused.
var ErrSkip = errors.New("jsonfast: skip this value")

// lookStopped carries the error a Look returned through the decoder.
type lookStopped struct{ err error }

func (l *lookStopped) Error() string { return l.err.Error() }

// Every is a Look that calls f before each value of type E (a state's
// compute, a plan's step) is decoded: f returns nil to decode it, ErrSkip to
// read past it, or an error to stop the decoding with that error.
func Every[E any](f func() error) Look {
	return Look{jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, _ *E) error {
		switch err := f(); {
		case err == nil:
			return errors.ErrUnsupported // the decoder's own way, as without the Look
		case errors.Is(err, ErrSkip):
			return dec.SkipValue()
		default:
			return &lookStopped{err}
		}
	})}
}

// DecodeLooking is Decode that calls its looks as it goes. err is the
// error a look stopped it with (*v is zero again); otherwise ok is
// Decode's result.
func DecodeLooking(data []byte, v any, rejectUnknown bool, looks ...Look) (ok bool, err error) {
	if len(looks) == 0 {
		return Decode(data, v, rejectUnknown), nil
	}
	us := make([]*jsonv2.Unmarshalers, len(looks))
	for i, l := range looks {
		us[i] = l.unmarshalers
	}
	err = decode(data, v, rejectUnknown, jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(us...)))
	var stopped *lookStopped
	if errors.As(err, &stopped) {
		return false, stopped.err
	}
	return err == nil, nil
}

// LookEvery is how many values a look from Interrupted lets by between two
// looks at its context: about 15 ms of decoding (diff's planning looks as
// often).
const LookEvery = 1024

// Interrupted is a Look's function that stops the decoding with ctx's
// error once ctx is done, looking every LookEvery values.
func Interrupted(ctx context.Context) func() error {
	n := 0
	return func() error {
		if n++; n%LookEvery == 0 {
			return ctx.Err()
		}
		return nil
	}
}

// isPointer reports whether v is a non-nil pointer, which decoding needs.
func isPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && !rv.IsNil()
}
