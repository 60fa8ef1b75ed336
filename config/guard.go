package config

import (
	"errors"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Every expression of the configuration is evaluated under the evaluation's
// budget (evalbudget.go): a copy of its syntax tree in which each part that
// does work is wrapped in a guard, which takes a step before it is evaluated
// and charges what it made after. The file's own tree is left as parsed, for
// the checks that read it. hcl evaluates a tree by recursion, with no hook
// between two parts, so the guards are the only place to stop it: a guard
// that finds the budget spent or the run interrupted panics with evalStop,
// and evaluate recovers it (nothing else of hcl or cty is in the middle of
// work then, and a panic is how to leave a recursion at once).

// evalStop is the panic of a guard that stops the evaluation: the refusal,
// and the expression where it happened.
type evalStop struct {
	refusal *refusal
	at      hcl.Range
}

// use is what the expression around a value does with it, which a guard
// charges on top of a step, and of the memory of a value its expression
// makes (guard.makes).
type use int

const (
	// useRead: read as it is, or not at all by more than a step.
	useRead use = iota
	// useCopied: copied into another value (a template's part, a for
	// expression's element): charged as new, though a reference makes
	// nothing, since the copy does.
	useCopied
	// useIterated: a for expression or a splat goes through the value:
	// stepsPerIteration for each element.
	useIterated
	// useCompared: compared with another (==, !=), which goes through all
	// of it: a step for each element, nested ones too.
	useCompared
	// useUnified: given to a function that takes a list, a set or a map of
	// any type; hcl converts a tuple or an object to it by comparing the
	// type of each element with every other's (go-cty's convert.unify): a
	// step for each pair.
	useUnified
)

// guard is an expression evaluated under the budget.
type guard struct {
	hclsyntax.Expression
	b *evalBudget
	// makes: the value is new (a template's text, a list's own elements,
	// those inside them charged when they were made).
	makes bool
	use   use
	// template, on a template's part: the text of the parts before it.
	template *templateText
	// resets, on a template: its parts' text, from none at each evaluation.
	resets *templateText
}

// templateText is the text a template's parts have made so far, in one
// evaluation: hcl writes each into the result as it goes, so a template of
// a thousand references to a large text is stopped at the part that passes
// MaxValueText, not after it has all been written.
type templateText struct {
	n  int64
	at hcl.Range
}

func (g *guard) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	g.stopOn(g.b.take(stepsPerExpression))
	if g.resets != nil {
		g.resets.n = 0
	}
	v, diags := g.Expression.Value(ctx)
	for _, d := range diags {
		// A function refused its arguments or its result (boundedfuncs.go):
		// it is stopped here, where the call is written.
		if extra, ok := d.Extra.(hclsyntax.FunctionCallDiagExtra); ok {
			var r *refusal
			if errors.As(extra.FunctionCallError(), &r) {
				g.stopOn(r)
			}
		}
	}
	g.stopOn(g.charged(v))
	if s, _ := v.Unmark(); g.template != nil && s.IsKnown() && !s.IsNull() && s.Type() == cty.String {
		g.template.n += int64(len(s.AsString()))
		if r := (size{text: g.template.n}).over("This template, from its first parts only,"); r != nil {
			panic(evalStop{refusal: r, at: g.template.at})
		}
	}
	return v, diags
}

func (g *guard) stopOn(r *refusal) {
	if r != nil {
		panic(evalStop{refusal: r, at: g.Range()})
	}
}

// charged charges v: its memory if it is new, and what its use costs.
func (g *guard) charged(v cty.Value) *refusal {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	ty := v.Type()
	if ty == cty.Number {
		return numberTooLarge(v.AsBigFloat())
	}
	holds := ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType()
	if g.makes || g.use == useCopied {
		var s size
		if ty == cty.String {
			s.text = int64(len(v.AsString()))
		} else if holds {
			s.elems = int64(v.LengthInt())
		}
		if r := s.over("This expression's value"); r != nil {
			return r
		}
		if r := g.b.hold(s.bytes()); r != nil {
			return r
		}
	}
	if !holds {
		return nil
	}
	switch n := int64(v.LengthInt()); g.use {
	case useIterated:
		return g.b.take(stepsPerIteration * n)
	case useCompared:
		s, r := measure(v, size{text: MaxValueText, elems: min(g.b.steps, MaxValueElements)})
		if r != nil {
			return r
		}
		return g.b.take(s.elems)
	case useUnified:
		if ty.IsTupleType() || ty.IsObjectType() {
			return g.b.take(n * n / 2)
		}
	}
	return nil
}

// guardedCopy is expr as evaluated: the copy of its tree with guards, made
// once.
func (b *evalBudget) guardedCopy(expr hcl.Expression) hcl.Expression {
	if g, ok := b.guarded[expr]; ok {
		return g
	}
	e, ok := expr.(hclsyntax.Expression)
	if !ok {
		return expr // not of a file (never, in neonform)
	}
	g := b.guard(e, useRead)
	b.guarded[expr] = g
	return g
}

// guard copies e with guards on its parts, and on itself, for the use u of
// its value. A reference or a literal is left as it is when it is only
// read: it makes nothing, and takes no time.
func (b *evalBudget) guard(e hclsyntax.Expression, u use) hclsyntax.Expression {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		if u == useRead && !(e.Val.Type() == cty.Number && numberTooLarge(e.Val.AsBigFloat()) != nil) {
			return e
		}
		return b.wrap(e, false, u) // a number too large is refused where it is written
	case *hclsyntax.ScopeTraversalExpr, *hclsyntax.AnonSymbolExpr:
		if u == useRead {
			return e
		}
		return b.wrap(e, false, u)
	case *hclsyntax.TemplateExpr:
		cp := *e
		cp.Parts = make([]hclsyntax.Expression, len(e.Parts))
		text := &templateText{at: e.Range()}
		for i, p := range e.Parts {
			// Each part's text is copied into the result.
			cp.Parts[i] = b.guard(p, useCopied)
			if g, ok := cp.Parts[i].(*guard); ok {
				g.template = text
			}
		}
		g := b.wrap(&cp, true, u)
		g.resets = text
		return g
	}
	cp, makes := b.guardParts(e, u)
	return b.wrap(cp, makes, u)
}

// wrap guards x, for the use u of its value, which x makes new if makes.
func (b *evalBudget) wrap(x hclsyntax.Expression, makes bool, u use) *guard {
	return &guard{Expression: x, b: b, makes: makes, use: u}
}

// guardParts copies e, an expression made of others, with guards on its
// parts; makes says whether e's value is new. An expression hcl adds later
// is left as it is: evaluated as it is, the guard around it charges a step.
func (b *evalBudget) guardParts(e hclsyntax.Expression, u use) (hclsyntax.Expression, bool) {
	switch e := e.(type) {
	case *hclsyntax.TemplateWrapExpr:
		cp := *e
		cp.Wrapped = b.guard(e.Wrapped, u)
		return &cp, false
	case *hclsyntax.TemplateJoinExpr:
		cp := *e
		cp.Tuple = b.guard(e.Tuple, useRead)
		return &cp, true
	case *hclsyntax.ParenthesesExpr:
		cp := *e
		cp.Expression = b.guard(e.Expression, u)
		return &cp, false
	case *hclsyntax.FunctionCallExpr:
		return b.guardCall(e), false // the function charges its result (boundedfuncs.go)
	case *hclsyntax.ConditionalExpr:
		cp := *e
		cp.Condition = b.guard(e.Condition, useRead)
		cp.TrueResult, cp.FalseResult = b.guard(e.TrueResult, u), b.guard(e.FalseResult, u)
		return &cp, false
	case *hclsyntax.BinaryOpExpr:
		cp := *e
		operand := useRead
		if e.Op == hclsyntax.OpEqual || e.Op == hclsyntax.OpNotEqual {
			operand = useCompared
		}
		cp.LHS, cp.RHS = b.guard(e.LHS, operand), b.guard(e.RHS, operand)
		return &cp, true
	case *hclsyntax.UnaryOpExpr:
		cp := *e
		cp.Val = b.guard(e.Val, useRead)
		return &cp, true
	case *hclsyntax.IndexExpr:
		cp := *e
		cp.Collection, cp.Key = b.guard(e.Collection, useRead), b.guard(e.Key, useRead)
		return &cp, false
	case *hclsyntax.RelativeTraversalExpr:
		cp := *e
		cp.Source = b.guard(e.Source, useRead)
		return &cp, false
	case *hclsyntax.SplatExpr:
		cp := *e
		cp.Source = b.guard(e.Source, useIterated)
		cp.Each = b.guard(e.Each, useRead)
		return &cp, true
	case *hclsyntax.ForExpr:
		return b.guardFor(e), true
	case *hclsyntax.TupleConsExpr:
		cp := *e
		cp.Exprs = make([]hclsyntax.Expression, len(e.Exprs))
		for i, x := range e.Exprs {
			cp.Exprs[i] = b.guard(x, useRead)
		}
		return &cp, true
	case *hclsyntax.ObjectConsExpr:
		cp := *e
		cp.Items = make([]hclsyntax.ObjectConsItem, len(e.Items))
		for i, item := range e.Items {
			cp.Items[i] = hclsyntax.ObjectConsItem{KeyExpr: b.guardKey(item.KeyExpr), ValueExpr: b.guard(item.ValueExpr, useRead)}
		}
		return &cp, true
	}
	return e, false
}

// guardCall copies a function call with guards on its arguments; one the
// function unifies is charged for it.
func (b *evalBudget) guardCall(e *hclsyntax.FunctionCallExpr) *hclsyntax.FunctionCallExpr {
	cp := *e
	cp.Args = make([]hclsyntax.Expression, len(e.Args))
	f, known := b.functions[e.Name]
	for i, a := range e.Args {
		au := useRead
		if known && unifies(f, i) {
			au = useUnified
		}
		cp.Args[i] = b.guard(a, au)
	}
	return &cp
}

// guardFor copies a for expression with guards on its parts.
func (b *evalBudget) guardFor(e *hclsyntax.ForExpr) *hclsyntax.ForExpr {
	cp := *e
	cp.CollExpr = b.guard(e.CollExpr, useIterated)
	if e.KeyExpr != nil {
		cp.KeyExpr = b.guard(e.KeyExpr, useCopied)
	}
	// Each element is charged as new: one made from a reference is
	// charged whole, though it shares the referenced value's memory, so
	// a thousand copies of a large value are a thousand.
	cp.ValExpr = b.guard(e.ValExpr, useCopied)
	if e.CondExpr != nil {
		cp.CondExpr = b.guard(e.CondExpr, useRead)
	}
	return &cp
}

// unifies says whether f's argument i is a list, a set or a map of any type.
func unifies(f function.Function, i int) bool {
	var ty cty.Type
	if params := f.Params(); i < len(params) {
		ty = params[i].Type
	} else if vp := f.VarParam(); vp != nil {
		ty = vp.Type
	} else {
		return false
	}
	return (ty.IsListType() || ty.IsSetType() || ty.IsMapType()) && ty.ElementType() == cty.DynamicPseudoType
}

// guardKey guards the key of an object's item: a name written bare (key =
// ...) stays as it is, since hcl reads it as a name, not evaluated.
func (b *evalBudget) guardKey(e hclsyntax.Expression) hclsyntax.Expression {
	k, ok := e.(*hclsyntax.ObjectConsKeyExpr)
	if !ok {
		return b.guard(e, useRead)
	}
	if _, bare := k.Wrapped.(*hclsyntax.ScopeTraversalExpr); bare {
		return k
	}
	cp := *k
	cp.Wrapped = b.guard(k.Wrapped, useRead)
	return &cp
}

// evaluate is expr's value in ctx under the budget. ok is false when the
// evaluation stopped, here or before: the diagnostic that says why is in
// l.diags, once, and expr has no value.
func (l *loader) evaluate(expr hcl.Expression, ctx *hcl.EvalContext) (v cty.Value, diags hcl.Diagnostics, ok bool) {
	b := l.evalBudget
	if b.stopped != nil {
		return cty.DynamicVal, nil, false
	}
	defer func() {
		r := recover()
		if r == nil && b.ctx.Err() != nil {
			// Looked at after each expression too, since one may take fewer
			// steps than a look at the context is every.
			r = evalStop{refusal: b.interrupt(), at: expr.Range()}
		}
		if r == nil {
			return
		}
		stop, isStop := r.(evalStop)
		if !isStop {
			panic(r)
		}
		b.stopped = &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  stop.refusal.summary,
			Detail:   stop.refusal.detail,
			Subject:  stop.at.Ptr(),
			Context:  expr.Range().Ptr(),
		}
		b.interrupted = stop.refusal.interrupt
		l.diags = append(l.diags, b.stopped)
		v, diags, ok = cty.DynamicVal, nil, false
	}()
	v, diags = b.guardedCopy(expr).Value(ctx)
	return v, diags, true
}
