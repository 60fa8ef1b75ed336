package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/neonform/neonform/state"
)

// The plan as `plan -format json` and `show -format json` print it hides
// every value that came from a sensitive variable: the file that -out writes
// keeps them (apply needs them), but what a command prints ends up in CI
// logs. The printed document is the file's, with each such value replaced
// by SensitiveValue and "redacted": true, which apply refuses
// (docs/plan-format.md).

// hasSensitive reports whether any value of the plan came from a sensitive
// variable.
func (p *Plan) hasSensitive() bool {
	for _, ch := range p.Changes {
		if len(ch.Sensitive) > 0 {
			return true
		}
		for _, a := range ch.Attributes {
			if a.Sensitive {
				return true
			}
		}
	}
	for _, d := range p.Drift {
		for _, a := range d.Attributes {
			if a.Sensitive {
				return true
			}
		}
	}
	return false
}

// writeRedacted writes the plan file's document with the values of sensitive
// attributes replaced; a plan without any is written as the file holds it.
func writeRedacted(w io.Writer, p *Plan) error {
	if !p.hasSensitive() {
		return writeChecked(w, p)
	}
	var buf bytes.Buffer
	if err := writePlanJSON(&buf, p); err != nil {
		return err
	}
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	doc, err := parseNode(dec)
	if err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	redact(doc, p)
	var out bytes.Buffer
	doc.write(&out)
	var indented bytes.Buffer
	if err := json.Indent(&indented, out.Bytes(), "", "  "); err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	indented.WriteString("\n")
	_, err = w.Write(indented.Bytes())
	return err
}

// Where values of managed attributes live in the document, by JSON key: a
// live endpoint and a state record (applied) use the service's value names,
// a request body the API's.
var (
	valueKeys = map[string]string{"type": "type", "name": "name", "min_cu": "min_cu", "max_cu": "max_cu",
		"suspend_timeout_seconds": "suspend_timeout", "pg_settings": "pg_settings", "disabled": "disabled"}
	bodyKeys = map[string]string{"type": "type", "name": "name", "autoscaling_limit_min_cu": "min_cu",
		"autoscaling_limit_max_cu": "max_cu", "suspend_timeout_seconds": "suspend_timeout", "disabled": "disabled"}
)

// HiddenApplied is a state entry's applied values as JSON, in the state
// file's shape, with each value that came from a sensitive variable hidden
// as in the printed plan: what state show -json prints.
func HiddenApplied(c *state.Compute) json.RawMessage {
	b := mustJSON(c.Applied)
	if len(c.Sensitive) == 0 {
		return b
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		panic(fmt.Sprintf("diff: reading back %s: %v", b, err)) // our own encoding
	}
	hideValues(n, valueKeys, c.Sensitive)
	var out bytes.Buffer
	n.write(&out)
	return out.Bytes()
}

func redact(doc *node, p *Plan) {
	byAddress := map[string][]string{}
	for _, ch := range p.Changes {
		byAddress[ch.Address] = ch.Sensitive
	}
	byEndpoint := p.SensitiveByEndpoint()
	for _, ch := range doc.get("changes").items {
		names := byAddress[ch.get("address").text()]
		hideValues(ch, map[string]string{"type": "type"}, names)
		redactAttributes(ch.get("attributes"), names)
	}
	for _, d := range doc.get("drift").items {
		redactAttributes(d.get("attributes"), nil)
	}
	for _, proj := range doc.get("projects").items {
		for _, ep := range proj.get("endpoints").items {
			hideValues(ep, valueKeys, byEndpoint[ep.get("id").text()])
		}
	}
	for _, s := range doc.get("steps").items {
		names := byAddress[s.get("address").text()]
		hideValues(s, map[string]string{"name": "name"}, names)
		if body := s.get("body").get("endpoint"); body != nil {
			hideValues(body, bodyKeys, names)
			hideValues(body.get("settings"), valueKeys, names)
		}
		if rec := s.get("record"); rec != nil {
			hideValues(rec, map[string]string{"type": "type"}, names)
			hideValues(rec.get("applied"), valueKeys, names)
		}
	}
	doc.set("redacted", &node{raw: []byte("true")})
}

// redactAttributes hides the before and after of each plan attribute that
// is marked sensitive, or that names hides.
func redactAttributes(attrs *node, names []string) {
	for _, a := range attrs.items {
		if a.get("sensitive").text() == "true" || Hides(names, a.get("name").text()) {
			hideValues(a, map[string]string{"before": "", "after": ""}, nil)
		}
	}
}

// hideValues replaces the values of obj's keys that stand for an attribute
// names hides (every key, for an attribute "" stands for), keeping null (no
// value) as it is; an object of settings keeps its keys.
func hideValues(obj *node, keys map[string]string, names []string) {
	if obj == nil {
		return
	}
	for _, k := range obj.keys {
		attr, ok := keys[k]
		if !ok || attr != "" && !Hides(names, attr) {
			continue
		}
		v := obj.fields[k]
		if v.fields != nil {
			for _, sk := range v.keys {
				v.fields[sk] = hiddenNode()
			}
			continue
		}
		if string(v.raw) != "null" {
			obj.fields[k] = hiddenNode()
		}
	}
}

func hiddenNode() *node {
	b, _ := json.Marshal(SensitiveValue)
	return &node{raw: b}
}

// node is a JSON value with its object keys in order: an object (fields),
// a list (items, list true) or anything else as it is written (raw).
type node struct {
	keys   []string
	fields map[string]*node
	items  []*node
	list   bool
	raw    []byte
}

func parseNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		n := &node{fields: map[string]*node{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k.(string))
			n.fields[k.(string)] = v
		}
		_, err := dec.Token()
		return n, err
	case json.Delim('['):
		n := &node{list: true}
		for dec.More() {
			v, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
		_, err := dec.Token()
		return n, err
	}
	raw, err := json.Marshal(tok)
	return &node{raw: raw}, err
}

// get is an object's field, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.fields == nil {
		return nil
	}
	return n.fields[key]
}

// set sets a field, at the end when it is new.
func (n *node) set(key string, v *node) {
	if _, ok := n.fields[key]; !ok {
		n.keys = append(n.keys, key)
	}
	n.fields[key] = v
}

// text is a string's text, or a scalar as written ("true", "2").
func (n *node) text() string {
	if n == nil || n.raw == nil {
		return ""
	}
	var s string
	if json.Unmarshal(n.raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(n.raw))
}

// write writes n compact.
func (n *node) write(b *bytes.Buffer) {
	switch {
	case n.fields != nil:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			n.fields[k].write(b)
		}
		b.WriteByte('}')
	case n.list:
		b.WriteByte('[')
		for i, item := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			item.write(b)
		}
		b.WriteByte(']')
	default:
		b.Write(n.raw)
	}
}
