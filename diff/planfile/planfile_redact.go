package planfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/state"
)

// The plan as `plan -format json` and `show -format json` print it hides
// every value that came from a sensitive variable: the file that -out writes
// keeps them (apply needs them), but what a command prints ends up in CI
// logs. The printed document is the file's, with each such value replaced
// by HiddenValue (which names the variable) and "redacted": true, which apply refuses
// (docs/plan-format.md).

// writeRedacted writes the plan file's document with the values of sensitive
// attributes replaced; a plan without any is written as the file holds it.
func writeRedacted(w io.Writer, p *diff.Plan) error {
	if !p.HasSensitive() {
		return writePlan(w, p)
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
// live endpoint, a change, a reason, a step and a state record (its own and
// applied) use the plan's value names (managed.Attribute.Key), a request
// body the API's; settings, keyed, are an object of the API's (settings)
// that holds them under their value name. Every object that holds a
// compute's values hides them by these keys, which the table says: none
// lists a key of its own.
var (
	valueKeys = keysOf(func(a *managed.Attribute) string { return a.Key })
	bodyKeys  = keysOf(func(a *managed.Attribute) string {
		if a.Keyed {
			return ""
		}
		return a.API
	})
)

// keysOf maps the JSON key key gives each managed attribute ("" for none)
// to the attribute's name.
func keysOf(key func(*managed.Attribute) string) map[string]string {
	m := map[string]string{}
	for _, a := range managed.All {
		if k := key(a); k != "" {
			m[k] = a.Name
		}
	}
	return m
}

// HiddenApplied is a state entry's applied values as JSON, in the state
// file's shape, with each value that came from a sensitive variable hidden
// as in the printed plan: what state show -json prints.
func HiddenApplied(c *state.Compute) json.RawMessage {
	b, err := json.Marshal(c.Applied)
	if err != nil {
		panic(fmt.Sprintf("diff: encoding %T: %v", c.Applied, err)) // plain values of our own
	}
	if len(c.Sensitive) == 0 {
		return b
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		panic(fmt.Sprintf("diff: reading back %s: %v", b, err)) // our own encoding
	}
	hideValues(n, valueKeys, diff.SecretsOf(c))
	var out bytes.Buffer
	n.write(&out)
	return out.Bytes()
}

func redact(doc *node, p *diff.Plan) {
	byAddress := map[string]diff.Secrets{}
	for i := range p.Changes {
		byAddress[p.Changes[i].Address] = p.Changes[i].Secrets()
	}
	byEndpoint := p.SensitiveByEndpoint()
	for _, ch := range doc.get("changes").items {
		names := byAddress[ch.get("address").text()]
		hideValues(ch, valueKeys, names)
		redactAttributes(ch.get("attributes"), names)
		for _, r := range ch.get("reasons").items {
			// The name of a replica adopted by it, or the type of the
			// compute created, hidden as the change hides its own.
			hideValues(r, valueKeys, names)
		}
	}
	defaultsOf := map[string]diff.Secrets{} // by project id
	for i := range p.Defaults {
		byAddress[p.Defaults[i].Address] = p.Defaults[i].Secrets()
		defaultsOf[p.Defaults[i].ProjectID] = p.Defaults[i].Secrets()
	}
	if ds := doc.get("defaults"); ds != nil {
		for _, dc := range ds.items {
			redactAttributes(dc.get("attributes"), byAddress[dc.get("address").text()])
		}
	}
	for _, d := range doc.get("drift").items {
		redactAttributes(d.get("attributes"), diff.Secrets{})
	}
	for _, proj := range doc.get("projects").items {
		for _, ep := range proj.get("endpoints").items {
			hideValues(ep, valueKeys, byEndpoint[ep.get("id").text()])
		}
		if d := proj.get("defaults"); d != nil {
			hideDefaults(d, defaultsOf[proj.get("id").text()])
		}
	}
	for _, s := range doc.get("steps").items {
		names := byAddress[s.get("address").text()]
		hideValues(s, valueKeys, names)
		if body := s.get("body").get("endpoint"); body != nil {
			hideValues(body, bodyKeys, names)
			hideValues(body.get("settings"), valueKeys, names)
		}
		if d := s.get("body").get("project").get("default_endpoint_settings"); d != nil {
			hideDefaults(d, names)
		}
		if rec := s.get("record"); rec != nil {
			hideValues(rec, valueKeys, names)
			hideValues(rec.get("applied"), valueKeys, names)
		}
	}
	if budgets := doc.get("cost").get("budgets"); budgets != nil {
		for _, b := range budgets.items {
			// A ceiling that counts a sensitive compute's cost would tell it.
			if b.get("sensitive").text() == "true" {
				hideValue(b, "usd_max", diff.SensitiveValue)
				if b.get("outside_targets_usd_max") != nil {
					hideValue(b, "outside_targets_usd_max", diff.SensitiveValue)
				}
			}
		}
	}
	doc.set("redacted", &node{raw: []byte("true")})
}

// hideDefaults hides the sensitive values of a project's defaults, in the
// service's shape: its fields are the API's, and pg_settings is keyed by
// the plan's value name.
func hideDefaults(d *node, names diff.Secrets) {
	hideValues(d, bodyKeys, names)
	hideValues(d, valueKeys, names)
}

// redactAttributes hides the before and after of each plan attribute that
// is marked sensitive, or that s hides, naming the variables the attribute
// or s says it comes from.
func redactAttributes(attrs *node, s diff.Secrets) {
	for _, a := range attrs.items {
		name := a.get("name").text()
		if a.get("sensitive").text() != "true" && !s.Hides(name) {
			continue
		}
		vars := s.Vars(name)
		if from := a.get("sensitive_from"); from != nil && len(from.items) > 0 {
			vars = nil
			for _, v := range from.items {
				vars = append(vars, v.text())
			}
		}
		for _, k := range []string{"before", "after"} {
			hideValue(a, k, diff.HiddenValue(vars))
		}
	}
}

// hideValues replaces the values of obj's keys that stand for an attribute
// s hides.
func hideValues(obj *node, keys map[string]string, s diff.Secrets) {
	if obj == nil {
		return
	}
	for _, k := range obj.keys {
		if attr, ok := keys[k]; ok && s.Hides(attr) {
			hideValue(obj, k, s.Value(attr))
		}
	}
}

// hideValue replaces obj's value at k by hidden, keeping null (no value) as
// it is; an object of settings keeps its keys.
func hideValue(obj *node, k, hidden string) {
	b, _ := json.Marshal(hidden)
	v := obj.fields[k]
	if v.fields != nil {
		for _, sk := range v.keys {
			v.fields[sk] = &node{raw: b}
		}
		return
	}
	if string(v.raw) != "null" {
		obj.fields[k] = &node{raw: b}
	}
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
