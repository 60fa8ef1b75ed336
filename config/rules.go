package config

import (
	"errors"
	"fmt"
	"path"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// A branch rule is a branches block in a project: its computes go on every
// live branch whose name matches, such as every preview branch of a pull
// request. Which branches match is known only when the project's branches
// are read, at plan time: each matched branch is then an instance of the
// rule, a Branch like any other (Instance), whose label is
// previews["preview/pr-12"].

// BranchRule is a branches block.
type BranchRule struct {
	Label string
	// Match are the globs a branch name must match (one of them), with the
	// rules of path.Match: * does not cross a slash.
	Match []string
	// Exclude are globs of names left out even when they match.
	Exclude []string
	// Exclusive: as on a branch block, live computes on a matched branch that
	// the rule does not declare are deleted.
	Exclusive bool
	// Computes are the templates of each instance's computes: their Address
	// is <project>.<rule>[*].<compute>, which names no single compute.
	Computes  []*Compute
	DeclRange hcl.Range
}

var ruleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "match"}, {Name: "exclude"}, {Name: "exclusive"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "compute", LabelNames: []string{"name"}}},
}

// Matches reports whether a branch name matches the rule: one of its match
// globs, and none of its exclude globs. The globs were checked at load.
func (r *BranchRule) Matches(name string) bool {
	return matchAny(r.Match, name) && !matchAny(r.Exclude, name)
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// Instance is the rule applied to one live branch: a branch block that finds
// the branch by its name, labelled <rule>["<name>"], with a copy of each
// compute at its instance's address.
func (r *BranchRule) Instance(projectLabel, branchName string) *Branch {
	br := &Branch{Label: InstanceLabel(r.Label, branchName), Name: branchName, Exclusive: r.Exclusive, DeclRange: r.DeclRange}
	br.Computes = make([]*Compute, len(r.Computes))
	for i, c := range r.Computes {
		cc := *c // maps are shared: nothing changes a decoded compute
		cc.Address = AddressOf(projectLabel, br.Label, c.Label)
		cc.BranchLabel = br.Label
		br.Computes[i] = &cc
	}
	return br
}

// decodeRules reads a project's branches blocks. Their labels share the
// namespace of the project's branch labels (branches), since both make up
// addresses.
func (l *loader) decodeRules(p *Project, blocks []*hclsyntax.Block, branches map[string]hcl.Range) {
	seen := map[string]*BranchRule{}
	for _, b := range blocks {
		r := l.decodeRule(p, b)
		if prev := seen[r.Label]; prev != nil {
			l.errorf(b.LabelRanges[0], "Duplicate branches label",
				"Project %q already has a branches block labelled %q at %s; labels of branch and branches blocks must be unique within a project, so rename one.", p.Label, r.Label, where(prev.DeclRange))
			continue
		}
		if prev, ok := branches[r.Label]; ok {
			l.errorf(b.LabelRanges[0], "Duplicate branches label",
				"Project %s already has a branch block labelled %q at %s; labels of branch and branches blocks must be unique within a project, so rename one.", p.Label, r.Label, where(prev))
			continue
		}
		seen[r.Label] = r
		p.Rules = append(p.Rules, r)
	}
}

func (l *loader) decodeRule(p *Project, b *hclsyntax.Block) *BranchRule {
	r := &BranchRule{Label: b.Labels[0], DeclRange: b.DefRange()}
	l.checkLabel(b, "branches block")
	c, diags := bodyContent(b.Body, ruleSchema, "a branches block")
	l.diags = append(l.diags, diags...)

	if a := c.Attributes["match"]; a == nil {
		l.errorf(r.DeclRange, "Missing match",
			"A branches block applies its computes to the branches whose name matches: add match = \"preview/*\" (a glob, or a list of globs).")
	} else {
		r.Match = l.globs(a, false)
	}
	if a := c.Attributes["exclude"]; a != nil {
		r.Exclude = l.globs(a, true)
	}
	if v, state := l.boolAttr(c.Attributes["exclusive"]); state == valid {
		r.Exclusive = v
	}

	// The computes are decoded as those of a branch labelled like the rule,
	// with the same checks (one read_write, distinct names); their address
	// then says they stand for every instance.
	template := &Branch{Label: r.Label, Name: r.Label}
	l.decodeComputes(p, template, c.Blocks)
	for _, cp := range template.Computes {
		cp.Address = AddressOf(p.Label, AllInstances(r.Label), cp.Label)
	}
	r.Computes = template.Computes
	return r
}

// globs reads match or exclude: a glob, or a list of globs, each checked for
// syntax; which branches they match is known at plan time only. An empty
// list is refused for match (it would match nothing), allowed for exclude.
func (l *loader) globs(a *hclsyntax.Attribute, emptyOK bool) []string {
	const want = `a glob such as "preview/*", or a list of globs`
	v, state, _ := l.eval(a, cty.DynamicPseudoType, want)
	if state != valid {
		return nil
	}
	if v.Type() == cty.String {
		v = cty.TupleVal([]cty.Value{v})
	}
	list, err := convert.Convert(v, cty.List(cty.String))
	if err != nil || (list.LengthInt() == 0 && !emptyOK) || hasNull(list) {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Incorrect attribute value type",
			Detail:   fmt.Sprintf("%s must be %s, not %s.", a.Name, want, globsTypeName(v, err)),
			Subject:  a.Expr.Range().Ptr(),
			Context:  a.SrcRange.Ptr(),
		})
		return nil
	}
	var out []string
	for _, g := range list.AsValueSlice() {
		glob := g.AsString()
		if !ValidGlob(glob) {
			l.errorf(a.Expr.Range(), "Invalid glob",
				"%q is not a glob of branch names: %s.", glob, GlobSyntax)
			continue
		}
		out = append(out, glob)
	}
	return out
}

// GlobSyntax says what a glob of branch names is, for the messages that
// refuse one.
const GlobSyntax = `a glob is text with * (any characters but /), ? (one character) and [...] (one of a set, closed by ]), such as "preview/*"; write \ before one of them to mean it literally`

// ValidGlob reports whether glob is a glob of branch names that match and
// exclude accept: not empty, and of path.Match's syntax.
func ValidGlob(glob string) bool {
	_, err := path.Match(glob, "")
	return glob != "" && !errors.Is(err, path.ErrBadPattern)
}

func globsTypeName(v cty.Value, err error) string {
	if err == nil && v.LengthInt() == 0 {
		return "an empty list"
	}
	return typeName(v.Type())
}

// AllRuleComputes lists the compute templates of every rule, for what speaks
// of the configuration before its branches are known (validate).
func (c *Config) AllRuleComputes() []*Compute {
	var out []*Compute
	for _, p := range c.Projects {
		for _, r := range p.Rules {
			out = append(out, r.Computes...)
		}
	}
	return out
}

// RuleOf is the rule an address would be an instance of
// (shop.previews["preview/pr-12"].primary: the rule previews of project
// shop, when it declares the compute primary), or nil.
func (c *Config) RuleOf(address string) *BranchRule {
	project, branch, compute, err := ParseAddress(address)
	if err != nil {
		return nil
	}
	label, _, keyed := SplitInstance(branch)
	if !keyed {
		return nil
	}
	for _, p := range c.Projects {
		if p.Label != project {
			continue
		}
		for _, r := range p.Rules {
			if r.Label != label {
				continue
			}
			for _, cp := range r.Computes {
				if cp.Label == compute {
					return r
				}
			}
		}
	}
	return nil
}
