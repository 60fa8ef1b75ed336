package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// envVarPrefix is how the environment gives a variable a value: NEONFORM_VAR_<name>.
const envVarPrefix = "NEONFORM_VAR_"

// variable is a variable block.
type variable struct {
	Name string
	// Type is cty.DynamicPseudoType when the block has no type: values are taken as
	// given, and a -var value is a string.
	Type      cty.Type
	Default   cty.Value // cty.NilVal when there is none
	Sensitive bool
	DeclRange hcl.Range
	// broken: its type or default was invalid (reported), so a missing value is not
	// reported on top.
	broken bool
}

// declareVariables reads the variable blocks. Their defaults and types are literals,
// read before any expression is evaluated (l.ctx is nil here).
func (l *loader) declareVariables(blocks []*hclsyntax.Block) {
	for _, b := range blocks {
		name := b.Labels[0]
		if !hclsyntax.ValidIdentifier(name) {
			l.errorf(b.LabelRanges[0], "Invalid variable name",
				"%q cannot name a variable: names are letters, digits, _ and -, starting with a letter, as in variable \"replica_cu\".", name)
			continue
		}
		if prev := l.vars[name]; prev != nil {
			l.errorf(b.LabelRanges[0], "Duplicate variable",
				"A variable named %q is already declared at %s; remove one of the two blocks.", name, where(prev.DeclRange))
			continue
		}
		v := &variable{Name: name, Type: cty.DynamicPseudoType, DeclRange: b.DefRange()}
		l.vars[name] = v
		l.varOrder = append(l.varOrder, name)

		c, diags := bodyContent(b.Body, variableSchema, "a variable block")
		l.diags = append(l.diags, diags...)
		if a := c.Attributes["type"]; a != nil {
			ty, diags := typeexpr.TypeConstraint(a.Expr)
			l.diags = append(l.diags, diags...)
			switch {
			case diags.HasErrors():
				v.broken = true
				for _, d := range diags {
					text, meant := typeHint(a.Expr)
					d.Detail += text
					withNear(d, nearMiss(len(d.Detail), false, meant))
				}
			case !supportedType(ty):
				v.broken = true
				l.errorf(a.Expr.Range(), "Unsupported variable type",
					"Variables are string, number, bool, list(T) or map(T), where T is one of these; %s is not supported.", typeexpr.TypeString(ty))
			default:
				v.Type = ty
			}
		}
		l.stringAttr(c.Attributes["description"], "a string")
		if s, state := l.boolAttr(c.Attributes["sensitive"]); state == valid {
			v.Sensitive = s
			if s {
				if l.cfg.SensitiveVariables == nil {
					l.cfg.SensitiveVariables = map[string]bool{}
				}
				l.cfg.SensitiveVariables[name] = true
			}
		}
		if a := c.Attributes["default"]; a != nil {
			val, state, _ := l.eval(a, cty.DynamicPseudoType, "a value")
			v.broken = v.broken || state == invalid
			if state == valid {
				if conv, err := convert.Convert(val, v.Type); err != nil {
					v.broken = true
					l.errorf(a.Expr.Range(), "Invalid default value for variable",
						"Variable %q is of type %s: %s.", name, typeexpr.TypeString(v.Type), err)
				} else {
					v.Default = conv
				}
			}
		}
	}
}

// typeNames maps type names people bring from other languages to ours.
var typeNames = map[string]string{
	"int": "number", "integer": "number", "float": "number", "double": "number", "decimal": "number",
	"boolean": "bool", "str": "string", "text": "string",
	"array": "list(string)", "object": "map(string)", "dict": "map(string)", "hash": "map(string)",
}

// typeHint is what to write instead of a type hcl did not understand: the
// types there are, and the one meant when one is close ("" when none).
func typeHint(expr hcl.Expression) (text, meant string) {
	text = " Variable types are string, number, bool, list(T) and map(T), where T is one of these, as in type = list(string)."
	word := hcl.ExprAsKeyword(expr)
	if alias, ok := typeNames[strings.ToLower(word)]; ok {
		return text, alias
	}
	if word == "" {
		return text, ""
	}
	return text, suggest(word, []string{"string", "number", "bool", "list", "map", "any"})
}

// supportedType accepts string, number, bool, and lists and maps of them; "any"
// (cty.DynamicPseudoType) is the same as no type.
func supportedType(ty cty.Type) bool {
	switch {
	case ty == cty.String, ty == cty.Number, ty == cty.Bool, ty == cty.DynamicPseudoType:
		return true
	case ty.IsListType(), ty.IsMapType():
		return supportedType(ty.ElementType())
	}
	return false
}

// assignVariables gives every declared variable its value, by Terraform's precedence,
// lowest first: default, environment NEONFORM_VAR_<name>, -var-file files in order,
// -var options in order. A variable left without a value is an error; its value is
// then unknown, so expressions that use it are skipped without more errors.
func (l *loader) assignVariables() map[string]cty.Value {
	values := map[string]cty.Value{}
	for _, name := range l.varOrder {
		if v := l.vars[name]; v.Default != cty.NilVal {
			values[name] = v.Default
		}
	}

	for _, key := range mapKeys(l.environ) {
		name, ok := strings.CutPrefix(key, envVarPrefix)
		if !ok || l.vars[name] == nil {
			continue // the environment holds many things; only declared names matter
		}
		values[name] = l.rawValue(l.vars[name], l.environ[key], key)
	}

	for _, path := range l.opts.VarFiles {
		l.readVarFile(path, values)
	}

	for _, kv := range l.opts.Vars {
		name, raw, ok := strings.Cut(kv, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			l.diags = append(l.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid -var option",
				Detail:   fmt.Sprintf("-var %q must be a name and a value with an equals sign between them, like -var 'replica_cu=2'.", kv),
			})
			continue
		}
		v := l.vars[name]
		if v == nil {
			undeclared := fmt.Sprintf("-var gives a value for %q, but no variable of that name is declared.", name)
			l.diags = append(l.diags, withNear(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Value for undeclared variable",
				Detail:   undeclared + fmt.Sprintf(" Declare it with variable %q { ... }, or drop the -var.", name),
			}, nearMiss(len(undeclared), true, suggest(name, l.varOrder))))
			continue
		}
		values[name] = l.rawValue(v, raw, "-var "+name)
	}

	for _, name := range l.varOrder {
		v := l.vars[name]
		if _, ok := values[name]; !ok && v.broken {
			values[name] = cty.DynamicVal
		} else if !ok && l.opts.SettingsOnly {
			// Reported only where the neonform block uses it (see eval).
			l.missing[name] = true
			values[name] = cty.DynamicVal
		} else if !ok {
			l.errorf(v.DeclRange, "Missing variable value",
				"Variable %q has no default and no value was given. Set it with -var '%s=VALUE', in a file passed with -var-file (%s = VALUE), or with the environment variable %s%s; or give it a default.",
				name, name, name, envVarPrefix, name)
			values[name] = cty.DynamicVal
		}
		if v.Sensitive {
			values[name] = values[name].Mark(sensitiveMark)
		}
	}
	return values
}

// rawValue converts a value given as text (-var, environment) by the declared type:
// text for a string or untyped variable, a number or bool parsed from the text, and
// HCL syntax for lists and maps, as Terraform does. source names where the text came
// from. The value itself is never repeated in a message: it may be a secret.
//
// A value that cannot be converted is reported and comes back unknown
// (cty.DynamicVal): the variable was given, so it is not also reported as missing,
// and expressions that use it are skipped instead of failing a second time.
func (l *loader) rawValue(v *variable, raw, source string) cty.Value {
	fail := func(problem string) cty.Value {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for variable",
			Detail: fmt.Sprintf("The value from %s is not a valid %s: %s. Variable %q is declared at %s.",
				source, typeexpr.TypeString(v.Type), problem, v.Name, where(v.DeclRange)),
		})
		return cty.DynamicVal
	}
	switch {
	case v.Type == cty.DynamicPseudoType || v.Type == cty.String:
		return cty.StringVal(raw)
	case v.Type.IsPrimitiveType():
		val, err := convert.Convert(cty.StringVal(strings.TrimSpace(raw)), v.Type)
		if err != nil {
			return fail(err.Error())
		}
		return val
	}
	if d := l.budget.checkShape([]byte(raw), source); d != nil {
		d.Subject = nil // the value is not in a file, and may be a secret
		d.Detail = "The value from " + source + ": " + d.Detail
		l.diags = append(l.diags, d)
		return cty.DynamicVal
	}
	expr, diags := hclsyntax.ParseExpression([]byte(raw), source, hcl.InitialPos)
	if diags.HasErrors() {
		return fail("lists and maps are written in HCL syntax, like [\"a\", \"b\"] or { key = \"value\" }")
	}
	val, diags, ok := l.evaluate(expr, nil)
	if !ok {
		return cty.DynamicVal
	}
	if diags.HasErrors() {
		return fail("it must be a literal value, without references or function calls")
	}
	conv, err := convert.Convert(val, v.Type)
	if err != nil {
		return fail(err.Error())
	}
	return conv
}

// readVarFile reads a -var-file: name = value lines in HCL syntax, literal values only.
// Names that no variable declares are warnings, not errors, because one file of
// values is often shared by several configurations.
func (l *loader) readVarFile(path string, values map[string]cty.Value) {
	src, d := l.budget.read(path, "Variable file")
	if d != nil {
		d.Detail = fmt.Sprintf("-var-file %s: %s A relative path is read from the current directory.", path, d.Detail)
		l.diags = append(l.diags, d)
		return
	}
	f, diags, stopped := l.parse(src, path)
	if stopped {
		return
	}
	if f != nil {
		l.cfg.Files[path] = f
		l.cfg.VarFiles[path] = true
	}
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return
	}
	body := f.Body.(*hclsyntax.Body)
	for _, b := range body.Blocks {
		l.errorf(b.TypeRange, "Unexpected block in variable file",
			"A variable file holds only name = value lines; %s blocks belong in the configuration's .hcl files.", b.Type)
	}
	for _, a := range sortedAttributes(body) {
		v := l.vars[a.Name]
		if v == nil {
			detail := fmt.Sprintf("No variable named %q is declared, so this value is not used.", a.Name)
			l.diags = append(l.diags, withNear(&hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Value for undeclared variable",
				Detail:   detail,
				Subject:  a.NameRange.Ptr(),
			}, nearMiss(len(detail), true, suggest(a.Name, l.varOrder))))
			continue
		}
		if v.Sensitive {
			l.secrets = append(l.secrets, secret{rng: a.SrcRange, what: "var." + v.Name, vars: []string{v.Name},
				want: "of type " + typeexpr.TypeString(v.Type), inVarFile: true})
		}
		val, state, _ := l.eval(a, cty.DynamicPseudoType, "a value")
		switch state {
		case omitted:
			continue // name = null leaves the value to the lower sources, as in Terraform
		case invalid:
			// Given but wrong (already reported): unknown, not also missing.
			values[a.Name] = cty.DynamicVal
			continue
		}
		conv, err := convert.Convert(val, v.Type)
		if err != nil {
			l.errorf(a.Expr.Range(), "Invalid value for variable",
				"Variable %q is of type %s: %s.", v.Name, typeexpr.TypeString(v.Type), err)
			values[a.Name] = cty.DynamicVal
			continue
		}
		values[a.Name] = conv
	}
}

// reportMissing explains an attribute that is unknown because, with
// Options.SettingsOnly, a variable it depends on has no value. (Otherwise an
// unknown value comes from a value already reported as wrong: nothing to add.)
func (l *loader) reportMissing(a *hclsyntax.Attribute) {
	if len(l.missing) == 0 {
		return
	}
	names := make([]string, 0, len(l.missing))
	for name := range l.missing {
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) > 1 {
		// Name only those the attribute uses directly, when it names any.
		var direct []string
		for _, t := range a.Expr.Variables() {
			if t.RootName() == "var" && len(t) > 1 {
				if attr, ok := t[1].(hcl.TraverseAttr); ok && l.missing[attr.Name] {
					direct = append(direct, attr.Name)
				}
			}
		}
		if len(direct) > 0 {
			names = direct
		}
	}
	l.errorf(a.Expr.Range(), "Missing variable value",
		"%s depends on variables without a value here (%s). Applying a saved plan reads only the neonform block, to find the service and the state: give it the values it uses, with -var, -var-file or NEONFORM_VAR_<name>, as when the plan was made.",
		a.Name, strings.Join(names, ", "))
}
