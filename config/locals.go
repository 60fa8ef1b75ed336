package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// local is one name = value line of a locals block.
type local struct {
	Name string
	Attr *hclsyntax.Attribute
	// Deps are the locals its expression refers to, in the order written.
	Deps []string
	// refsOK is false when the expression refers to something undefined (reported).
	refsOK bool
}

// declareLocals collects every local of every locals block before any is checked,
// so a local may refer to one written later or in another file.
func (l *loader) declareLocals(blocks []*hclsyntax.Block) {
	for _, b := range blocks {
		for _, nested := range b.Body.Blocks {
			l.errorf(nested.TypeRange, "Unsupported block type",
				"A locals block holds only name = value lines, not %s blocks.", nested.Type)
		}
		for _, a := range sortedAttributes(b.Body) {
			if prev := l.locals[a.Name]; prev != nil {
				l.errorf(a.NameRange, "Duplicate local value",
					"local.%s is already defined at %s; give one of them another name.", a.Name, where(prev.Attr.NameRange))
				continue
			}
			l.locals[a.Name] = &local{Name: a.Name, Attr: a}
			l.localOrder = append(l.localOrder, a.Name)
		}
	}
}

// evaluateLocals checks each local's references, then evaluates the locals in
// dependency order. A cycle is reported once, naming the chain; the locals in it,
// and those that fail, get an unknown value so nothing that uses them reports again.
func (l *loader) evaluateLocals(vars cty.Value) map[string]cty.Value {
	for _, name := range l.localOrder {
		loc := l.locals[name]
		diags := l.checkRefs(loc.Attr.Expr, cty.DynamicPseudoType)
		l.diags = append(l.diags, diags...)
		loc.refsOK = !diags.HasErrors()
		for _, t := range loc.Attr.Expr.Variables() {
			if t.RootName() != "local" {
				continue
			}
			if dep, _, ok := refName(t); ok && l.locals[dep] != nil && !contains(loc.Deps, dep) {
				loc.Deps = append(loc.Deps, dep)
			}
		}
	}

	values := make(map[string]cty.Value, len(l.locals))
	const (
		unvisited = iota
		visiting
		done
	)
	state := make(map[string]int, len(l.locals))
	inCycle := map[string]bool{}
	var stack []string

	var visit func(name string)
	visit = func(name string) {
		state[name] = visiting
		stack = append(stack, name)
		loc := l.locals[name]
		for _, dep := range loc.Deps {
			switch state[dep] {
			case unvisited:
				visit(dep)
			case visiting:
				l.reportCycle(stack, dep, inCycle)
			}
		}
		stack = stack[:len(stack)-1]
		state[name] = done

		if inCycle[name] || !loc.refsOK {
			values[name] = cty.DynamicVal
			return
		}
		deps := make(map[string]cty.Value, len(loc.Deps))
		for _, dep := range loc.Deps {
			deps[dep] = values[dep]
		}
		ctx := &hcl.EvalContext{
			Variables: map[string]cty.Value{"var": vars, "local": cty.ObjectVal(deps)},
			Functions: l.functions,
		}
		if len(l.cfg.SensitiveVariables) > 0 {
			l.noteSecret(loc.Attr, "local."+name, "")
		}
		v, diags, ok := l.evaluate(loc.Attr.Expr, ctx)
		if !ok {
			values[name] = cty.DynamicVal
			return
		}
		l.diags = append(l.diags, diags...)
		if diags.HasErrors() || emptyString(v) {
			l.noteEmptyEnv(loc.Attr.Expr)
		}
		if diags.HasErrors() {
			v = cty.DynamicVal
		}
		values[name] = v
	}
	for _, name := range l.localOrder {
		if state[name] == unvisited {
			visit(name)
		}
	}
	return values
}

// reportCycle reports the cycle that closes at dep: the part of the stack from dep
// on, back to dep, as "local.a -> local.b -> local.a".
func (l *loader) reportCycle(stack []string, dep string, inCycle map[string]bool) {
	start := 0
	for i, n := range stack {
		if n == dep {
			start = i
			break
		}
	}
	chain := make([]string, 0, len(stack)-start+1)
	for _, n := range stack[start:] {
		chain = append(chain, "local."+n)
		inCycle[n] = true
	}
	chain = append(chain, "local."+dep)
	l.errorf(l.locals[dep].Attr.NameRange, "Cycle in local values",
		"%s: each refers to the next, so none of them has a value. Write one of them without referring to the others.",
		strings.Join(chain, " -> "))
}
