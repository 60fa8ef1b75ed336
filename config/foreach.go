package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// A project, branch or compute block with for_each stands for one instance per
// key of a map or element of a set of strings, as in Terraform. Each instance
// is decoded like a block of its own, with each.key and each.value in scope
// and the label label["key"] (InstanceLabel), so its address carries the key
// and the planner, the state and plan files see ordinary addresses.

// instance is one instance of a block: its label, and the each object that its
// expressions see (cty.NilVal for a block without for_each).
type instance struct {
	label string
	each  cty.Value
	// probe stands for no instance: a for_each with no keys still has its
	// block checked, with each.key and each.value unknown, and nothing kept.
	probe bool
}

// keyed reports an instance of a block with for_each.
func (i instance) keyed() bool { return i.each != cty.NilVal }

// instances expands a block by its for_each: one instance per key, in key
// order, or the block itself when it has none. A for_each that cannot be used
// is reported and gives no instances: its block is not checked, since every
// check would be about a guess. One with no keys gives a probe.
func (l *loader) instances(b *hclsyntax.Block) []instance {
	a := b.Body.Attributes["for_each"]
	if a == nil {
		return []instance{{label: b.Labels[0]}}
	}
	l.noteApplyVariables(a.Expr)
	v, state, sensitive := l.evalAny(a, cty.DynamicPseudoType)
	switch {
	case state == invalid:
		return nil
	case sensitive:
		l.forEachError(a, "for_each uses a sensitive value: its keys become part of addresses, which plans and the state print. Keep the keys in a value that is not sensitive, and look the secret values up by each.key inside the block.")
		return nil
	case state == omitted:
		l.forEachError(a, "for_each is null: it must be a map, or a set of strings, such as toset([\"eu\", \"us\"]). For no instances, write an empty one: {} or toset([]).")
		return nil
	}
	ty := v.Type()
	var keys []string
	values := map[string]cty.Value{}
	switch {
	case ty.IsMapType() || ty.IsObjectType():
		for it := v.ElementIterator(); it.Next(); {
			k, val := it.Element()
			keys = append(keys, k.AsString())
			values[k.AsString()] = val
		}
	case ty.IsSetType() || ty.IsListType() || ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if e.Type() != cty.String {
				l.forEachError(a, "for_each over %s needs strings, and one element is %s. Make the elements strings, such as toset([\"eu\", \"us\"]), or use a map whose keys name the instances.", typeName(ty), typeName(e.Type()))
				return nil
			}
			k := e.AsString()
			if _, dup := values[k]; dup {
				l.forEachError(a, "for_each lists %q twice, and each instance needs its own key. Write each key once, or wrap the list in toset(...) to drop duplicates.", k)
				return nil
			}
			keys = append(keys, k)
			values[k] = e
		}
	default:
		l.forEachError(a, "for_each must be a map, or a set of strings, not %s: write { eu = 1, us = 2 } or toset([\"eu\", \"us\"]).", typeName(ty))
		return nil
	}
	if len(keys) == 0 {
		// Checks that need each's value are skipped: an unknown value is
		// invalid without an error (values.go).
		return []instance{{
			label: b.Labels[0] + "[each.key]",
			each:  cty.ObjectVal(map[string]cty.Value{"key": cty.UnknownVal(cty.String), "value": cty.DynamicVal}),
			probe: true,
		}}
	}
	sort.Strings(keys)
	out := make([]instance, 0, len(keys))
	for _, k := range keys {
		if k == "" {
			l.forEachError(a, "for_each has an empty key, and a key names an instance in its address, as in %s. Give every element or map key a non-empty value.", InstanceLabel(b.Labels[0], "eu"))
			return nil
		}
		out = append(out, instance{
			label: InstanceLabel(b.Labels[0], k),
			each:  cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal(k), "value": values[k]}),
		})
	}
	return out
}

func (l *loader) forEachError(a *hclsyntax.Attribute, format string, args ...any) {
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid for_each",
		Detail:   fmt.Sprintf(format, args...),
		Subject:  a.Expr.Range().Ptr(),
		Context:  a.SrcRange.Ptr(),
	})
}

// within decodes an instance with its each in scope: expressions in the block,
// and in the blocks inside it, see the innermost each. It returns the span of
// diagnostics the instance added, for nameInstances.
func (l *loader) within(inst instance, address string, decode func()) span {
	sp := span{address: address, from: len(l.diags)}
	if !inst.keyed() {
		decode()
		sp.to = len(l.diags)
		return sp
	}
	outer, outerEach := l.ctx, l.each
	l.ctx = outer.NewChild()
	l.ctx.Variables = map[string]cty.Value{"each": inst.each}
	l.each = true
	decode()
	l.ctx, l.each = outer, outerEach
	sp.to = len(l.diags)
	return sp
}

// span is the diagnostics that decoding one instance added: l.diags[from:to].
type span struct {
	address  string
	from, to int
}

// nameInstances says which instance a diagnostic is about when the instances
// of one block disagree: the instances share the block's source, so "in
// compute reports" alone does not tell which key's value is wrong. A
// diagnostic every instance has is about the block, and is said once
// (dropRepeats); one that names its instance already is left as it is.
func (l *loader) nameInstances(spans []span) {
	if len(spans) < 2 {
		return
	}
	type said struct {
		summary, detail string
		at              hcl.Range
	}
	key := func(d *hcl.Diagnostic) said {
		k := said{summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.at = *d.Subject
		}
		return k
	}
	count := map[said]int{}
	for _, sp := range spans {
		for _, d := range l.diags[sp.from:sp.to] {
			count[key(d)]++
		}
	}
	for _, sp := range spans {
		for _, d := range l.diags[sp.from:sp.to] {
			if count[key(d)] < len(spans) && !strings.Contains(d.Detail, sp.address) {
				prefixDetail(d, "In "+sp.address+": ")
			}
		}
	}
}

// checkEach checks a reference to each: only inside a block with for_each, and
// only each.key or each.value.
func (l *loader) checkEach(t hcl.Traversal) *hcl.Diagnostic {
	if !l.each {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reference to each outside for_each",
			Detail:   "each.key and each.value exist only inside a project, branch or compute block with for_each (and the blocks inside it). Add for_each to the block, or use a variable or a local here.",
			Subject:  t.SourceRange().Ptr(),
		}
	}
	if len(t) >= 2 {
		if attr, ok := t[1].(hcl.TraverseAttr); ok && (attr.Name == "key" || attr.Name == "value") {
			return nil
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid reference",
		Detail:   "each has two attributes: each.key, the instance's key, and each.value, its value in the for_each map (the key again for a set).",
		Subject:  t.SourceRange().Ptr(),
	}
}
