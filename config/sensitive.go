package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/managed"
)

// SensitiveValue is what every view, error, log line and JSON document prints
// in place of a value that came from a variable declared sensitive, when it
// does not know the variable (managed.SensitiveValue).
const SensitiveValue = managed.SensitiveValue

// HiddenValue is what every view, error, log line and JSON document prints in
// place of a value that came from the sensitive variables vars
// (managed.HiddenValue, the one place that words it).
func HiddenValue(vars []string) string { return managed.HiddenValue(vars) }

// secret is an attribute whose value comes from a variable declared
// sensitive = true. A diagnostic about it never repeats the value (a size,
// a duration, an id, its length, the sizes nearest to it): finish replaces
// its detail by one that says "(sensitive value)" and names the variable
// (docs/configuration.md, "Variables"). This is done in one place, after every check, so
// that a check written later cannot forget it.
type secret struct {
	// rng is the whole attribute, name = value.
	rng hcl.Range
	// what names it in the message: "suspend_timeout", "local.timeout".
	what string
	// vars are the sensitive variables it comes from, in the order written.
	vars []string
	// want describes a valid value, "" when there is nothing to say.
	want string
	// inVarFile: the attribute is the variable's value in a -var-file, whose
	// line is not quoted either (a file of secrets written by a CI job).
	inVarFile bool
}

// noteSecret records attribute a when its expression refers to a sensitive
// variable, directly or through locals (what names it in messages).
func (l *loader) noteSecret(a *hclsyntax.Attribute, what, want string) {
	if vars := l.sensitiveVars(a.Expr); len(vars) > 0 {
		l.secrets = append(l.secrets, secret{rng: a.SrcRange, what: what, vars: vars, want: want})
	}
}

// sensitiveVars are the sensitive variables that expr refers to, directly or
// through the locals it uses (and theirs).
func (l *loader) sensitiveVars(expr hcl.Expression) []string {
	var vars []string
	seen := map[string]bool{}
	var walk func(expr hcl.Expression)
	walk = func(expr hcl.Expression) {
		for _, t := range expr.Variables() {
			name, _, ok := refName(t)
			if !ok {
				continue
			}
			switch key := t.RootName() + "." + name; {
			case seen[key]:
			case t.RootName() == "var":
				seen[key] = true
				if v := l.vars[name]; v != nil && v.Sensitive {
					vars = append(vars, name)
				}
			case t.RootName() == "local":
				seen[key] = true
				if loc := l.locals[name]; loc != nil {
					walk(loc.Attr.Expr)
				}
			}
		}
	}
	walk(expr)
	return vars
}

// hideSecrets rewrites every diagnostic about a secret attribute (its subject
// lies within the attribute) so that it does not repeat the value: the
// summary stays, the detail says what a valid value is and which variable
// to look at, and hcl's expression and values are dropped. A diagnostic in
// keep is about the attribute without saying anything of its value.
func (l *loader) hideSecrets() {
	if len(l.secrets) == 0 {
		return
	}
	// Attributes do not overlap: sorted by where they start, the one that
	// may hold a subject is the last that starts before it (thousands of
	// errors about thousands of computes stay cheap).
	sort.Slice(l.secrets, func(i, j int) bool { return before(l.secrets[i].rng, l.secrets[j].rng) })
	for _, d := range l.diags {
		if d.Subject == nil || l.keepDetail[d] {
			continue
		}
		i := sort.Search(len(l.secrets), func(i int) bool { return before(*d.Subject, l.secrets[i].rng) })
		if i > 0 && within(*d.Subject, l.secrets[i-1].rng) {
			l.secrets[i-1].rewrite(d)
		}
	}
}

// before orders ranges by file, then by where they start (ties: the longer first).
func before(a, b hcl.Range) bool {
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Start.Byte != b.Start.Byte {
		return a.Start.Byte < b.Start.Byte
	}
	return a.End.Byte > b.End.Byte
}

func (s secret) rewrite(d *hcl.Diagnostic) {
	names := "var." + strings.Join(s.vars, ", var.")
	detail := fmt.Sprintf("The value of %s comes from the sensitive variable %s, so it is not shown: (sensitive value).", s.what, names)
	if len(s.vars) > 1 {
		detail = fmt.Sprintf("The value of %s comes from the sensitive variables %s, so it is not shown: (sensitive value).", s.what, names)
	}
	if s.want != "" {
		detail += fmt.Sprintf(" It must be %s.", s.want)
	}
	detail += fmt.Sprintf(" Check the value given to var.%s (by -var, -var-file, NEONFORM_VAR_%s or its default).", s.vars[0], s.vars[0])
	if s.inVarFile {
		// No line either: the printer would quote it.
		detail = fmt.Sprintf("The value of the sensitive variable var.%s in %s, line %d, is not valid, and is not shown: (sensitive value). It must be %s.",
			s.vars[0], s.rng.Filename, s.rng.Start.Line, s.want)
		d.Subject, d.Context = nil, nil
	}
	d.Detail = detail
	d.Expression, d.EvalContext = nil, nil
	if _, near := d.Extra.(diag.Near); near {
		d.Extra = nil // the name nearest a secret would tell of it
	}
}

// shown is value quoted for a message, or "(sensitive value)" and the
// variable it comes from when the attribute written at rng is a secret.
func (l *loader) shown(value string, rng hcl.Range) string {
	for _, s := range l.secrets {
		if within(rng, s.rng) {
			return HiddenValue(s.vars)
		}
	}
	return fmt.Sprintf("%q", value)
}

// keepLast marks the last diagnostic as saying nothing of a value, so that
// hideSecrets leaves its detail as written.
func (l *loader) keepLast() {
	if l.keepDetail == nil {
		l.keepDetail = map[*hcl.Diagnostic]bool{}
	}
	l.keepDetail[l.diags[len(l.diags)-1]] = true
}
