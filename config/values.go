package config

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// sensitiveMark marks values that come from a variable declared sensitive = true,
// so an attribute computed from one is recorded as sensitive in the model, and
// hcl's diagnostic writer does not print it.
const sensitiveMark = "sensitive"

// decoded says what became of an attribute.
type decoded int

const (
	// omitted: not written, or written as null; the default applies.
	omitted decoded = iota
	// valid: written, evaluated and of the right type.
	valid
	// invalid: an error was reported, or the value depends on one already reported
	// (an undefined variable, a local in a cycle). Checks that need it are skipped,
	// so one mistake gives one error.
	invalid
)

// functions are what expressions may call: the go-cty standard library under the
// names Terraform users know (coalesce as Terraform's: coalesce.go), and env.
// Nothing here reads files or the network.
func functions(environ map[string]string) map[string]function.Function {
	return map[string]function.Function{
		"abs":             stdlib.AbsoluteFunc,
		"ceil":            stdlib.CeilFunc,
		"chomp":           stdlib.ChompFunc,
		"chunklist":       stdlib.ChunklistFunc,
		"coalesce":        coalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"contains":        stdlib.ContainsFunc,
		"csvdecode":       stdlib.CSVDecodeFunc,
		"distinct":        stdlib.DistinctFunc,
		"element":         stdlib.ElementFunc,
		"env":             envFunc(environ),
		"flatten":         stdlib.FlattenFunc,
		"floor":           stdlib.FloorFunc,
		"format":          stdlib.FormatFunc,
		"formatdate":      stdlib.FormatDateFunc,
		"formatlist":      stdlib.FormatListFunc,
		"indent":          stdlib.IndentFunc,
		"join":            stdlib.JoinFunc,
		"jsondecode":      stdlib.JSONDecodeFunc,
		"jsonencode":      stdlib.JSONEncodeFunc,
		"keys":            stdlib.KeysFunc,
		"length":          stdlib.LengthFunc,
		"log":             stdlib.LogFunc,
		"lookup":          stdlib.LookupFunc,
		"lower":           stdlib.LowerFunc,
		"max":             stdlib.MaxFunc,
		"merge":           stdlib.MergeFunc,
		"min":             stdlib.MinFunc,
		"parseint":        stdlib.ParseIntFunc,
		"pow":             stdlib.PowFunc,
		"range":           stdlib.RangeFunc,
		"regex":           stdlib.RegexFunc,
		"regexall":        stdlib.RegexAllFunc,
		"regex_replace":   stdlib.RegexReplaceFunc,
		"replace":         stdlib.ReplaceFunc,
		"reverse":         stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      stdlib.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"signum":          stdlib.SignumFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"split":           stdlib.SplitFunc,
		"strlen":          stdlib.StrlenFunc,
		"strrev":          stdlib.ReverseFunc,
		"substr":          stdlib.SubstrFunc,
		"timeadd":         stdlib.TimeAddFunc,
		"title":           stdlib.TitleFunc,
		"tobool":          stdlib.MakeToFunc(cty.Bool),
		"tolist":          stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":           stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":        stdlib.MakeToFunc(cty.Number),
		"toset":           stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":        stdlib.MakeToFunc(cty.String),
		"trim":            stdlib.TrimFunc,
		"trimprefix":      stdlib.TrimPrefixFunc,
		"trimspace":       stdlib.TrimSpaceFunc,
		"trimsuffix":      stdlib.TrimSuffixFunc,
		"upper":           stdlib.UpperFunc,
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,
	}
}

// envFunc is env("NAME"): the variable from Options.Environ, "" when it is not set,
// so a configuration can fall back with coalesce(env("X"), "default").
func envFunc(environ map[string]string) function.Function {
	return function.New(&function.Spec{
		Description: `Returns the value of an environment variable, or "" when it is not set.`,
		Params:      []function.Parameter{{Name: "name", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(environ[args[0].AsString()]), nil
		},
	})
}

// parseEnviron turns "KEY=value" lines into a map; a later line wins, as with exec.Cmd.
func parseEnviron(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			m[k] = v
		}
	}
	return m
}

// eval evaluates an attribute and converts it to ty. The value comes back without
// marks; sensitive says whether any part of it came from a sensitive variable.
// want describes the expected value for the type error ("a number, such as 4").
func (l *loader) eval(a *hclsyntax.Attribute, ty cty.Type, want string) (val cty.Value, state decoded, sensitive bool) {
	if a != nil && len(l.cfg.SensitiveVariables) > 0 {
		l.noteSecret(a, a.Name, want)
	}
	v, state, sensitive := l.evalAny(a, ty)
	if state != valid {
		return cty.NilVal, state, sensitive
	}
	conv, err := convert.Convert(v, ty)
	if err != nil || !conv.IsWhollyKnown() || hasNull(conv) {
		detail := fmt.Sprintf("%s must be %s, not %s.", a.Name, want, typeName(v.Type()))
		if sameKind(v.Type(), ty) {
			// The right shape with a wrong element: say which element.
			problem := "one of its values is null"
			if err != nil {
				problem = err.Error()
			}
			detail = fmt.Sprintf("%s must be %s: %s.", a.Name, want, problem)
		}
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Incorrect attribute value type",
			Detail:      detail,
			Subject:     a.Expr.Range().Ptr(),
			Context:     a.SrcRange.Ptr(),
			Expression:  a.Expr,
			EvalContext: l.ctx,
		})
		return cty.NilVal, invalid, sensitive
	}
	return conv, valid, sensitive
}

// evalAny evaluates an attribute to a value of any type, without marks;
// sensitive says whether any part of it came from a sensitive variable. ty is
// the type the attribute takes (cty.DynamicPseudoType: any), for the advice
// on declaring a variable it names.
func (l *loader) evalAny(a *hclsyntax.Attribute, ty cty.Type) (val cty.Value, state decoded, sensitive bool) {
	if a == nil {
		return cty.NilVal, omitted, false
	}
	if !l.referencesOK(a, ty) {
		return cty.NilVal, invalid, false
	}
	v, diags, ok := l.evaluate(a.Expr, l.ctx)
	if !ok {
		return cty.NilVal, invalid, false
	}
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() || emptyString(v) {
		l.noteEmptyEnv(a.Expr)
	}
	if diags.HasErrors() {
		return cty.NilVal, invalid, false
	}
	if !v.IsWhollyKnown() {
		l.reportMissing(a)
		return cty.NilVal, invalid, false
	}
	v, marks := v.UnmarkDeep()
	if v.IsNull() {
		return cty.NilVal, omitted, len(marks) > 0
	}
	return v, valid, len(marks) > 0
}

// emptyString reports a known "" (sensitive or not).
func emptyString(v cty.Value) bool {
	v, _ = v.Unmark()
	return v.IsKnown() && !v.IsNull() && v.Type() == cty.String && v.AsString() == ""
}

// referencesOK checks what an attribute refers to before it is evaluated, and
// reports what is wrong.
func (l *loader) referencesOK(a *hclsyntax.Attribute, ty cty.Type) bool {
	if isLiteral(a.Expr) {
		// Most attributes are literals: skipping the walk over them saves a good
		// part of the time a large configuration takes.
		return true
	}
	if l.ctx == nil {
		// Variable blocks and variable files are read before any value exists.
		if refs := a.Expr.Variables(); len(refs) > 0 {
			l.errorf(refs[0].SourceRange(), "Variables not allowed",
				"%s is read before any variable or local exists, so it must be a literal value such as 2, \"text\", [\"a\"] or { key = \"value\" }. To compute a value, use a local.", a.Name)
			return false
		}
		return true
	}
	diags := l.checkRefs(a.Expr, ty)
	l.diags = append(l.diags, diags...)
	return !diags.HasErrors()
}

// isLiteral reports an expression that refers to nothing: a number, a bool, or a
// quoted string without interpolation.
func isLiteral(expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		for _, part := range e.Parts {
			if _, ok := part.(*hclsyntax.LiteralValueExpr); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// sameKind reports whether got is the kind of collection want is (a map for a map,
// a list for a list), so that the problem is in an element.
func sameKind(got, want cty.Type) bool {
	switch {
	case want.IsMapType():
		return got.IsMapType() || got.IsObjectType()
	case want.IsListType():
		return got.IsListType() || got.IsTupleType()
	}
	return false
}

// hasNull reports a null inside a collection: { work_mem = null } is not a setting.
func hasNull(v cty.Value) bool {
	if v.IsNull() {
		return true
	}
	if v.Type().IsCollectionType() {
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); hasNull(e) {
				return true
			}
		}
	}
	return false
}

func (l *loader) stringAttr(a *hclsyntax.Attribute, want string) (string, decoded) {
	v, state, _ := l.eval(a, cty.String, want)
	if state != valid {
		return "", state
	}
	return v.AsString(), valid
}

func (l *loader) boolAttr(a *hclsyntax.Attribute) (bool, decoded) {
	v, state, _ := l.eval(a, cty.Bool, "true or false")
	if state != valid {
		return false, state
	}
	return v.True(), valid
}

// numberValue turns a cty number into a float64; cty numbers are arbitrary-precision,
// so a literal too large for float64 becomes infinity, which every size check refuses.
func numberValue(v cty.Value) float64 {
	f, _ := v.AsBigFloat().Float64()
	if math.IsNaN(f) {
		return math.Inf(1)
	}
	return f
}

// typeName says a value's type the way the error messages want it.
func typeName(ty cty.Type) string {
	switch {
	case ty == cty.String:
		return "a string"
	case ty == cty.Number:
		return "a number"
	case ty == cty.Bool:
		return "a bool"
	case ty.IsObjectType() || ty.IsMapType():
		return "a map"
	case ty.IsTupleType() || ty.IsListType():
		return "a list"
	case ty.IsSetType():
		return "a set"
	}
	return ty.FriendlyName()
}

// checkRefs checks every reference in expr before it is evaluated, so a missing
// variable or local gets one clear error with a suggestion, instead of hcl's
// generic "Unsupported attribute" on an object.
//
// ty is the type the expression must have (cty.DynamicPseudoType: any): a
// variable that is the whole expression is advised to be declared of that type.
func (l *loader) checkRefs(expr hcl.Expression, ty cty.Type) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		root := t.RootName()
		switch root {
		case "var", "local":
			name, rng, ok := refName(t)
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid reference",
					Detail:   fmt.Sprintf("%s must be followed by a name, as in %s.", root, refExample(root)),
					Subject:  t.SourceRange().Ptr(),
				})
				continue
			}
			if root == "var" && l.vars[name] == nil {
				missing := fmt.Sprintf("There is no variable named %q.", name)
				diags = append(diags, withNear(&hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Undefined variable",
					Detail:   missing + fmt.Sprintf(" To add one, declare it: variable %q { type = %s }.", name, declaredType(expr, ty)),
					Subject:  rng.Ptr(),
				}, nearMiss(len(missing), false, nearestRef("var", name, mapKeys(l.vars)))))
			}
			if root == "local" && l.locals[name] == nil {
				missing := fmt.Sprintf("There is no local value named %q.", name)
				diags = append(diags, withNear(&hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Undefined local value",
					Detail:   missing + fmt.Sprintf(" To add one, define it in a locals block: locals { %s = ... }.", name),
					Subject:  rng.Ptr(),
				}, nearMiss(len(missing), false, nearestRef("local", name, mapKeys(l.locals)))))
			}
		case "each":
			if d := l.checkEach(t); d != nil {
				diags = append(diags, d)
			}
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference",
				Detail: fmt.Sprintf("%q is not a value neonform knows: values come from var.<name>, local.<name> and functions such as upper(...). For literal text, use quotes: \"%s\".",
					root, root),
				Subject: t.SourceRange().Ptr(),
			})
		}
	}
	return diags
}

// refName is the name after var. or local., written as var.x or var["x"].
func refName(t hcl.Traversal) (string, hcl.Range, bool) {
	if len(t) < 2 {
		return "", hcl.Range{}, false
	}
	switch step := t[1].(type) {
	case hcl.TraverseAttr:
		return step.Name, hcl.RangeBetween(t[0].SourceRange(), step.SrcRange), true
	case hcl.TraverseIndex:
		k := step.Key
		if k.IsKnown() && !k.IsMarked() && !k.IsNull() && k.Type() == cty.String {
			return k.AsString(), hcl.RangeBetween(t[0].SourceRange(), step.SrcRange), true
		}
	}
	return "", hcl.Range{}, false
}

func refExample(root string) string {
	if root == "var" {
		return "var.replica_cu"
	}
	return "local.tier"
}

// nearestRef is the reference nearest to root.name among root's names
// (var.replica_cu), "" when none is close.
func nearestRef(root, name string, names []string) string {
	if s := suggest(name, names); s != "" {
		return root + "." + s
	}
	return ""
}

func mapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// declaredType is the type to advise for a variable that expr refers to: the
// attribute's own type when the variable is the whole expression (size =
// var.x takes a number), else string.
func declaredType(expr hcl.Expression, ty cty.Type) string {
	if _, whole := expr.(*hclsyntax.ScopeTraversalExpr); whole && ty != cty.DynamicPseudoType && supportedType(ty) {
		return typeexpr.TypeString(ty)
	}
	return "string"
}
