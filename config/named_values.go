package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// NamedValue is a variable or a local as the configuration gave it a value:
// what an editor shows of var.x and local.y (neonform lsp).
type NamedValue struct {
	// Ref is how expressions name it: "var.replica_cu", "local.size".
	Ref string
	// Value is its value as HCL writes it, or HiddenValue when it is (or
	// comes from) a sensitive variable, or "" when it has none (a mistake
	// the diagnostics report).
	Value string
	// DeclRange is its declaration: the variable block, or the local's line.
	DeclRange hcl.Range
}

// recordNamedValues keeps, once variables and locals are evaluated, what
// each one is, in the order declared (Config.NamedValues).
func (l *loader) recordNamedValues(vars cty.Value, locals map[string]cty.Value) {
	for _, name := range l.varOrder {
		v := l.vars[name]
		nv := NamedValue{Ref: "var." + name, DeclRange: v.DeclRange}
		switch {
		case v.Sensitive:
			nv.Value = HiddenValue([]string{name})
		case vars.Type().HasAttribute(name):
			nv.Value = valueText(vars.GetAttr(name))
		}
		l.cfg.NamedValues = append(l.cfg.NamedValues, nv)
	}
	for _, name := range l.localOrder {
		loc := l.locals[name]
		nv := NamedValue{Ref: "local." + name, DeclRange: loc.Attr.SrcRange}
		if secret := l.sensitiveVars(loc.Attr.Expr); len(secret) > 0 {
			nv.Value = HiddenValue(secret)
		} else {
			nv.Value = valueText(locals[name])
		}
		l.cfg.NamedValues = append(l.cfg.NamedValues, nv)
	}
}

// valueText writes a value as HCL would: "2", "\"5m\"", "{ a = 1 }"; "" for
// one not known (a mistake reported elsewhere).
func valueText(v cty.Value) string {
	if v == cty.NilVal || !v.IsWhollyKnown() {
		return ""
	}
	return strings.TrimSpace(string(hclwrite.TokensForValue(v).Bytes()))
}

// NamedValue returns the variable or local that ref names ("var.x",
// "local.y"), and false when the configuration declares none.
func (c *Config) NamedValue(ref string) (NamedValue, bool) {
	for _, nv := range c.NamedValues {
		if nv.Ref == ref {
			return nv, true
		}
	}
	return NamedValue{}, false
}
