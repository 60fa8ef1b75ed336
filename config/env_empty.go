package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/neonform/neonform/internal/english"
	"github.com/zclconf/go-cty/cty"
)

// An attribute whose value comes out empty because an environment variable is
// unset (env() gives "") fails with a message about the attribute ("Invalid
// state path") that says nothing of the variable, which is the actual
// mistake: a CI job that lacks a secret. So the loader remembers which
// attribute values came out empty with an empty env() in them, and the errors
// about those attributes name the variables.

// emptyEnvValue is an attribute or local whose value came out empty (or
// failed) while env() read empty variables.
type emptyEnvValue struct {
	rng   hcl.Range
	names []string
}

// emptyEnvNames lists the variables that expr reads with env("NAME"),
// directly or through the locals it refers to, and that are empty or unset.
func (l *loader) emptyEnvNames(expr hcl.Expression) []string {
	found := map[string]bool{}
	seenLocals := map[string]bool{}
	var walk func(expr hcl.Expression)
	walk = func(expr hcl.Expression) {
		node, ok := expr.(hclsyntax.Node)
		if !ok {
			return
		}
		hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
			call, ok := n.(*hclsyntax.FunctionCallExpr)
			if !ok || call.Name != "env" || len(call.Args) != 1 {
				return nil
			}
			v, diags := call.Args[0].Value(nil)
			if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
				return nil
			}
			if name := v.AsString(); l.environ[name] == "" {
				found[name] = true
			}
			return nil
		})
		for _, t := range expr.Variables() {
			if t.RootName() != "local" {
				continue
			}
			if name, _, ok := refName(t); ok && !seenLocals[name] && l.locals[name] != nil {
				seenLocals[name] = true
				walk(l.locals[name].Attr.Expr)
			}
		}
	}
	walk(expr)
	return mapKeys(found)
}

// noteEmptyEnv remembers that expr's value came out empty, when empty
// variables read by env() are why; errors about it are then explained.
func (l *loader) noteEmptyEnv(expr hcl.Expression) {
	if isLiteral(expr) {
		return
	}
	if names := l.emptyEnvNames(expr); len(names) > 0 {
		l.emptyEnv = append(l.emptyEnv, emptyEnvValue{rng: expr.Range(), names: names})
	}
}

// explainEmptyEnv adds, to every error about a value that came out empty
// because of env(), which variables were empty.
func (l *loader) explainEmptyEnv() {
	for _, d := range l.diags {
		if d.Severity != hcl.DiagError || d.Subject == nil {
			continue
		}
		for _, e := range l.emptyEnv {
			if within(*d.Subject, e.rng) {
				d.Detail = strings.TrimRight(d.Detail, " ") + " " + emptyEnvSentence(e.names, l.environ)
				break
			}
		}
	}
}

// within reports whether inner lies inside outer.
func within(inner, outer hcl.Range) bool {
	return inner.Filename == outer.Filename && inner.Start.Byte >= outer.Start.Byte && inner.End.Byte <= outer.End.Byte
}

// emptyEnvSentence says which variables env() found empty:
// 'env("NEONFORM_STATE_URL") gave "" here: the environment variable
// NEONFORM_STATE_URL is not set.'
func emptyEnvSentence(names []string, environ map[string]string) string {
	calls := make([]string, len(names))
	why := make([]string, len(names))
	for i, n := range names {
		calls[i] = fmt.Sprintf("env(%q)", n)
		if _, ok := environ[n]; ok {
			why[i] = n + " is set to an empty string"
		} else {
			why[i] = n + " is not set"
		}
	}
	variable := "the environment variable "
	if len(names) > 1 {
		variable = "in the environment, "
	}
	return fmt.Sprintf("%s gave \"\" here: %s%s.", english.And(calls), variable, strings.Join(why, "; "))
}
