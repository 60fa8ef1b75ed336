package planfile

import (
	"bufio"
	"bytes"
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
// json.Encoder (and so its buffers).
type elementEncoder struct {
	w        *bufio.Writer
	buf      bytes.Buffer
	enc      *json.Encoder
	indented []byte
}

func newElementEncoder(w io.Writer) *elementEncoder {
	e := &elementEncoder{w: bufio.NewWriterSize(w, 64<<10)}
	e.enc = json.NewEncoder(&e.buf)
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

// value writes v indented as if it started at prefix: encoded compact, then
// indented by indentCompact (json.Indent's bytes, in a quarter of its time).
func (e *elementEncoder) value(v reflect.Value, prefix string) error {
	e.buf.Reset()
	if err := e.enc.Encode(v.Interface()); err != nil {
		return err
	}
	compact := bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")) // Encode ends every value with a newline
	e.indented = indentCompact(e.indented[:0], compact, prefix, "  ")
	_, err := e.w.Write(e.indented)
	return err
}

// indentCompact appends to dst what json.Indent makes of src, which must be
// compact JSON as encoding/json writes it (no space outside strings): each
// element of an object or a list on its own line, after prefix and one
// indent per level; an empty one stays "{}" or "[]"; ": " after a key.
// json.Indent runs its full scanner over every byte; this only needs to
// know whether it is inside a string.
func indentCompact(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	open := false                   // just after { or [: the line break waits for a first element
	breaks := []byte("\n" + prefix) // a line break and the indents of the deepest level so far
	newline := func() {
		for n := len(prefix) + 1 + depth*len(indent); len(breaks) < n; {
			breaks = append(breaks, indent...)
		}
		dst = append(dst, breaks[:len(prefix)+1+depth*len(indent)]...)
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			newline()
		}
		wasOpen := open
		open = false
		switch c {
		case '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++ // the escaped byte, a quote perhaps
				}
			}
			dst = append(dst, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			depth++
			open = true
		case '}', ']':
			depth--
			if !wasOpen {
				newline()
			}
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default: // a number, true, false or null: up to the next , ] or }
			j := i + 1
			for j < len(src) && src[j] != ',' && src[j] != ']' && src[j] != '}' {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j - 1
		}
	}
	return dst
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
