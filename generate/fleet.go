package generate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/config"
)

// A fleet is many branches that have the same computes, such as a preview
// branch per pull request: generate writes them as one branches block (a
// rule, docs/configuration.md "Many branches: rules") instead of a branch
// block each, and records each instance's computes at its rule address,
// shop.previews["preview/pr-1"].primary.

// Rule is what the user asked to gather: the branches whose names match
// (generate -match, -exclude), under a label (-rule).
type Rule struct {
	// Label is the branches block's label; "" is RuleLabel of the first glob.
	Label   string
	Match   []string
	Exclude []string
}

// Check refuses a rule the configuration would refuse, naming the flag.
func (r *Rule) Check() error {
	if len(r.Match) == 0 {
		return fmt.Errorf("-exclude and -rule go with -match: say which branches the rule gathers, as in -match 'preview/*'")
	}
	for _, flag := range []struct {
		name  string
		globs []string
	}{{"match", r.Match}, {"exclude", r.Exclude}} {
		for _, g := range flag.globs {
			if !config.ValidGlob(g) {
				return fmt.Errorf("-%s %q is not a glob of branch names: %s", flag.name, g, config.GlobSyntax)
			}
		}
	}
	if r.Label != "" && !config.ValidLabel(r.Label) {
		hint := ""
		if fixed := config.LabelFrom(r.Label); fixed != "" {
			hint = fmt.Sprintf(": try -rule %s", fixed)
		}
		return fmt.Errorf("-rule %q cannot label a branches block: labels are lowercase letters, digits, _ and -, starting with a letter%s", r.Label, hint)
	}
	return nil
}

// RuleLabel is the label of a rule gathered by glob when -rule does not
// give one: the glob's text before its first wildcard, made a label, in
// the plural ("preview/*" gives previews, "test-*" tests), or branches when
// that leaves nothing ("*").
func RuleLabel(glob string) string {
	prefix := glob[:strings.IndexAny(glob+"*", `*?[\`)]
	label := strings.TrimRight(config.LabelFrom(prefix), "-_")
	if label == "" {
		return "branches"
	}
	label = label[:min(len(label), maxLabel-1)]
	if !strings.HasSuffix(label, "s") {
		label += "s"
	}
	return label
}

func (r *Rule) label() string {
	if r.Label != "" {
		return r.Label
	}
	return RuleLabel(r.Match[0])
}

// RuleReport is what a file's branches block holds, for people: how many
// branches it gathers, which branches it matches but leaves to a block of
// their own (their computes differ), and which it excludes (they have no
// compute it could describe, and it would create its computes there).
type RuleReport struct {
	Label    string
	Branches int
	Own      []OwnBranch
	Excluded []string
}

// OwnBranch is a branch the rule matches that has a branch block of its
// own: its name in the service and its block's label.
type OwnBranch struct {
	Name, Label string
}

// fleetPlan is a project's branches block before it is written.
type fleetPlan struct {
	label          string
	match, exclude []string
	// branches are its instances, by name; each has the same computes.
	branches []*branchPlan
	// own are the branches it matches that keep a branch block, as their
	// computes differ; excluded, the names of those it matches that have
	// no compute.
	own      []*branchPlan
	excluded []string
}

// gatherFleet moves the branches that r matches and that share the same
// computes (the most of them alike) from the project's branch blocks into
// its branches block. The default branch keeps its block (its primary is
// protected, and a rule's computes are the same on every branch), and so do
// branches that share a name (an instance is known by its branch's name).
// The branches r matches that keep no block are excluded by name, so that
// the first plan creates nothing on them.
func (pp *projectPlan) gatherFleet(r *Rule, defaults map[*computePlan]*config.Compute) error {
	match := &config.BranchRule{Match: r.Match, Exclude: r.Exclude}
	shapes := map[string][]*branchPlan{}
	var order []string
	for _, bp := range pp.branches {
		if bp.b.Default || bp.byID || !match.Matches(bp.b.Name) {
			continue
		}
		shape, err := bp.shape(defaults)
		if err != nil {
			return err
		}
		if shapes[shape] == nil {
			order = append(order, shape)
		}
		shapes[shape] = append(shapes[shape], bp)
	}
	if len(order) == 0 {
		return nil
	}
	// The computes most of them share; on a tie, those of the first by name.
	common := order[0]
	for _, shape := range order[1:] {
		if len(shapes[shape]) > len(shapes[common]) {
			common = shape
		}
	}
	fl := &fleetPlan{label: r.label(), match: r.Match, exclude: slices.Clone(r.Exclude), branches: shapes[common]}
	for _, shape := range order {
		if shape != common {
			fl.own = append(fl.own, shapes[shape]...)
		}
	}
	slices.SortFunc(fl.own, func(a, b *branchPlan) int { return strings.Compare(a.b.Name, b.b.Name) })
	pp.branches = slices.DeleteFunc(pp.branches, func(bp *branchPlan) bool { return slices.Contains(fl.branches, bp) })

	// As the plan finds a rule's instances (diff/rules.go): a branch that a
	// branch block names is not one.
	named, pinned := map[string]bool{}, map[string]bool{}
	for _, bp := range pp.branches {
		if bp.byID {
			pinned[bp.b.ID] = true
		} else {
			named[bp.b.Name] = true
		}
	}
	for _, bp := range fl.branches {
		named[bp.b.Name] = true
	}
	for _, b := range pp.p.Branches {
		if !match.Matches(b.Name) || named[b.Name] || pinned[b.ID] || slices.Contains(fl.excluded, b.Name) {
			continue
		}
		fl.excluded = append(fl.excluded, b.Name)
	}
	slices.Sort(fl.excluded)
	for _, name := range fl.excluded {
		fl.exclude = append(fl.exclude, literalGlob(name))
	}
	pp.fleet = fl
	return nil
}

// shape is the compute blocks of the branch, as written: two branches of
// the same shape are described by the same blocks.
func (bp *branchPlan) shape(defaults map[*computePlan]*config.Compute) (string, error) {
	f := hclwrite.NewEmptyFile()
	for _, c := range bp.computes {
		if _, err := c.block(f.Body(), defaults); err != nil {
			return "", err
		}
	}
	return string(f.Bytes()), nil
}

// literalGlob is a glob that matches name alone: path.Match's wildcards and
// its escape written with a \ before them.
func literalGlob(name string) string {
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// write appends the branches block to the project's body, records its
// instances' computes at their rule addresses, and says what it holds.
func (fl *fleetPlan) write(pb *hclwrite.Body, pp *projectPlan, defaults map[*computePlan]*config.Compute, file *File, res *Result) error {
	pb.AppendNewline()
	rb := pb.AppendNewBlock("branches", []string{fl.label}).Body()
	rb.SetAttributeValue("match", globsValue(fl.match))
	if len(fl.exclude) > 0 {
		rb.SetAttributeValue("exclude", globsValue(fl.exclude))
	}
	rb.AppendNewline()
	// Every instance has these computes (their shape): the first's say them.
	for _, c := range fl.branches[0].computes {
		if _, err := c.block(rb, defaults); err != nil {
			return err
		}
	}
	for _, bp := range fl.branches {
		branch := config.InstanceLabel(fl.label, bp.b.Name)
		for _, c := range bp.computes {
			res.Computes = append(res.Computes, &Compute{Address: config.AddressOf(pp.label, branch, c.label),
				ProjectID: pp.p.ID, BranchName: bp.b.Name, Endpoint: c.ep})
			file.Computes++
		}
	}
	file.Rule = &RuleReport{Label: fl.label, Branches: len(fl.branches), Excluded: fl.excluded}
	for _, bp := range fl.own {
		file.Rule.Own = append(file.Rule.Own, OwnBranch{Name: bp.b.Name, Label: bp.label})
	}
	return nil
}

// globsValue is one glob as a string, several as a list.
func globsValue(globs []string) cty.Value {
	if len(globs) == 1 {
		return cty.StringVal(globs[0])
	}
	vals := make([]cty.Value, len(globs))
	for i, g := range globs {
		vals[i] = cty.StringVal(g)
	}
	return cty.ListVal(vals)
}
