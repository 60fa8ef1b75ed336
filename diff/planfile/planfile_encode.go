package planfile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/neonform/neonform/diff"
)

// writePlanJSON writes the plan file's bytes to w: the bytes of
// json.MarshalIndent(p, "", "  "), without the newline that ends the file,
// but a top-level list one element at a time. The file of 10,000 projects is
// 80 MB, and MarshalIndent would hold it whole twice (compact, then
// indented), each grown by doubling; this holds one element.
func writePlanJSON(w io.Writer, p *diff.Plan) error {
	diff.Normalize(p)
	e := newElementEncoder(w)
	if err := e.object(reflect.ValueOf(p).Elem()); err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	return e.w.Flush()
}

// elementEncoder writes the fields of the plan's top-level object, indented
// one level, and the elements of its lists, two levels, each with a reused
// json.Encoder that writes through an indenter.
type elementEncoder struct {
	w   *bufio.Writer
	in  indenter
	enc *json.Encoder
}

func newElementEncoder(w io.Writer) *elementEncoder {
	e := &elementEncoder{w: bufio.NewWriterSize(w, 64<<10)}
	e.in = indenter{w: e.w, indent: "  "}
	e.enc = json.NewEncoder(&e.in)
	return e
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

// object writes v, a struct, as MarshalIndent would at the top level. Only
// what the plan's fields use is streamed: exported fields named by their tag,
// some omitempty; anything else (an embedded struct, another option) makes it
// marshal v whole: the same bytes, with more memory.
func (e *elementEncoder) object(v reflect.Value) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous || name == "" || opts != "" && opts != "omitempty" {
			return e.value(v, "")
		}
	}
	e.w.WriteString("{")
	sep := "\n  "
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || opts == "omitempty" && empty(v.Field(i)) {
			continue
		}
		key, err := json.Marshal(name)
		if err != nil {
			return err
		}
		e.w.WriteString(sep)
		e.w.Write(key)
		e.w.WriteString(": ")
		if err := e.field(v.Field(i)); err != nil {
			return err
		}
		sep = ",\n  "
	}
	if sep == "\n  " {
		e.w.WriteString("}")
		return nil
	}
	e.w.WriteString("\n}")
	return nil
}

// field writes a top-level field's value: a list element by element, anything
// else whole.
func (e *elementEncoder) field(v reflect.Value) error {
	t := v.Type()
	if t.Kind() != reflect.Slice || v.IsNil() || v.Len() == 0 || t.Elem().Kind() == reflect.Uint8 ||
		t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
		return e.value(v, "  ")
	}
	e.w.WriteString("[")
	for i := range v.Len() {
		if i > 0 {
			e.w.WriteString(",")
		}
		e.w.WriteString("\n    ")
		// The element's address: a method of the pointer applies, as it
		// does to an element of a list json.Marshal walks.
		if err := e.value(v.Index(i).Addr(), "    "); err != nil {
			return err
		}
	}
	e.w.WriteString("\n  ]")
	return nil
}

// value writes v indented as if it started at prefix: encoded compact and
// indented as it is written (the indenter: json.Indent's bytes, in a
// quarter of its time). Nothing holds the value's text but the encoder: a
// project's digests of 250,000 state entries are 27 MB of it, which a
// buffer of the compact text and one of the indented made 200 MB of
// allocations.
func (e *elementEncoder) value(v reflect.Value, prefix string) error {
	e.in.reset(prefix)
	return e.enc.Encode(v.Interface())
}

// indenter writes to w what json.Indent makes of the compact JSON written
// to it, as encoding/json writes it (no space outside strings; the newline
// Encode ends a value with is dropped): each element of an object or a list
// on its own line, after prefix and one indent per level; an empty one stays
// "{}" or "[]"; ": " after a key. json.Indent runs its full scanner over
// every byte; this only needs to know whether it is inside a string. What
// it needs to know of the bytes before (the depth, whether it is in a string)
// is kept between writes, so a value may come in any pieces.
type indenter struct {
	w              *bufio.Writer
	prefix, indent string
	depth          int
	open           bool // just after { or [: the line break waits for a first element
	inString       bool
	escaped        bool // in a string, just after a backslash
	err            error
}

// reset starts a new value, indented as if it started at prefix.
func (in *indenter) reset(prefix string) {
	*in = indenter{w: in.w, prefix: prefix, indent: in.indent}
}

func (in *indenter) Write(src []byte) (int, error) {
	for i := 0; i < len(src); i++ {
		if in.inString {
			i = in.stringPart(src, i)
			continue
		}
		c := src[i]
		if c == '\n' {
			continue // Encode's newline after the value
		}
		if in.open && c != '}' && c != ']' {
			in.newline()
		}
		wasOpen := in.open
		in.open = false
		switch c {
		case '"':
			in.inString = true
			in.write(src[i : i+1])
		case '{', '[':
			in.write(src[i : i+1])
			in.depth++
			in.open = true
		case '}', ']':
			in.depth--
			if !wasOpen {
				in.newline()
			}
			in.write(src[i : i+1])
		case ',':
			in.write(src[i : i+1])
			in.newline()
		case ':':
			in.writeString(": ")
		default: // a number, true, false or null: up to the next , ] or }
			j := i + 1
			for j < len(src) && src[j] != ',' && src[j] != ']' && src[j] != '}' && src[j] != '\n' {
				j++
			}
			in.write(src[i:j])
			i = j - 1
		}
	}
	if in.err != nil {
		return 0, in.err
	}
	return len(src), nil
}

// stringPart writes the bytes of a string from src[i] up to its closing
// quote, or to the end of src, and returns the index of the last byte
// written.
func (in *indenter) stringPart(src []byte, i int) int {
	j := i
	for ; j < len(src); j++ {
		switch {
		case in.escaped:
			in.escaped = false // the escaped byte, a quote perhaps
		case src[j] == '\\':
			in.escaped = true
		case src[j] == '"':
			in.inString = false
			in.write(src[i : j+1])
			return j
		}
	}
	in.write(src[i:])
	return len(src) - 1
}

// newline writes a line break, the prefix and an indent a level.
func (in *indenter) newline() {
	in.writeString("\n")
	in.writeString(in.prefix)
	for range in.depth {
		in.writeString(in.indent)
	}
}

func (in *indenter) write(b []byte) {
	if _, err := in.w.Write(b); err != nil && in.err == nil {
		in.err = err
	}
}

func (in *indenter) writeString(s string) {
	if _, err := in.w.WriteString(s); err != nil && in.err == nil {
		in.err = err
	}
}

// empty is encoding/json's test of a field that omitempty leaves out.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}
