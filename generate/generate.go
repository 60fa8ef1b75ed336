// Package generate writes the configuration of computes that already exist:
// one HCL file per live project, in the canonical layout fmt writes, with a
// compute block for each endpoint that describes it exactly (so that a plan
// of it changes nothing), and the state entries that record each endpoint at
// its block's address.
package generate

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/sizing"
	"github.com/neonform/neonform/state"
)

// Result is what generate makes of the live projects.
type Result struct {
	Files    []*File
	Computes []*Compute
	// LeftOut are warnings about the endpoints without a block, and why.
	LeftOut diag.Diagnostics
}

// File is the configuration of one project.
type File struct {
	Name      string // in the directory, "shop.hcl"
	ProjectID string
	Label     string
	Src       []byte
	Branches  int
	Computes  int
	// Rule is what its branches block holds; nil when it has none.
	Rule *RuleReport
}

// Compute is a generated compute block and the endpoint it describes.
type Compute struct {
	Address   string
	ProjectID string
	// BranchName is the name its branch block finds the branch by; "" when
	// the block pins the branch by id.
	BranchName string
	Endpoint   *api.Endpoint
	// PreventDestroy: the block has lifecycle { prevent_destroy = true }.
	PreventDestroy bool
}

// Record is the state entry that makes neonform manage the endpoint at the
// compute's address, as import records one: what is live is what was applied.
func (c *Compute) Record() *state.Compute {
	rec := diff.LiveValues(c.Endpoint).Record(c.Endpoint.ID, c.ProjectID, c.PreventDestroy)
	rec.BranchName = c.BranchName
	rec.Host = c.Endpoint.Host
	return rec
}

// Options are what Make needs to know of the configuration it adds to.
type Options struct {
	// Dir is the configuration's directory, for the file names in diagnostics.
	Dir string
	// Taken are the project labels the configuration already uses.
	Taken map[string]bool
	// Tier is the configuration's account_tier, which caps sizes.
	Tier sizing.Tier
	// Settings, when set, is the neonform block the first file starts with:
	// the configuration has none yet, and a directory holds at most one.
	Settings *Settings
	// Rule, when set, gathers the branches its globs match into a branches
	// block in each project (fleet.go).
	Rule *Rule
}

// Settings are what a generated neonform block says.
type Settings struct {
	// APIURL is the service generate read, written when it is not the
	// default, so that the next plan reaches the same one.
	APIURL string
	// OrgID is the organization generate listed (NEON_ORG_ID), written so that
	// the next run acts in the same one.
	OrgID string
}

// Make writes the configuration of projects.
func Make(projects []*Project, o Options) (*Result, error) {
	taken := o.Taken
	res := &Result{}
	// Labels do not depend on the order the service lists projects in.
	projects = slices.Clone(projects)
	slices.SortFunc(projects, func(a, b *Project) int { return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID)) })
	projectLabels := labels{}
	maps.Copy(projectLabels, taken)
	names := make([]string, len(projects))
	for i, p := range projects {
		names[i] = p.Name
	}
	var plans []*projectPlan
	for i, label := range projectLabels.assign(names, "project", func(int) string { return "project" }) {
		plans = append(plans, planProject(projects[i], label, res))
	}
	defaults := emptyBlocks(plans)
	refused, err := refusedBlocks(plans, defaults, o)
	if err != nil {
		return nil, err
	}
	settings := o.Settings
	for _, pp := range plans {
		pp.leaveOut(refused, res)
		if o.Rule != nil {
			if err := pp.gatherFleet(o.Rule, defaults); err != nil {
				return nil, err
			}
		}
		pp.labelBranches()
		f, err := pp.write(defaults, settings, res)
		if err != nil {
			return nil, err
		}
		settings = nil // one block in the directory
		res.Files = append(res.Files, f)
	}
	return res, nil
}

// projectPlan is a project's blocks before they are written.
type projectPlan struct {
	p     *Project
	label string
	// branches are the branch blocks; fleet, the branches block, if any.
	branches []*branchPlan
	fleet    *fleetPlan
}

type branchPlan struct {
	b        *api.Branch
	label    string
	byID     bool
	computes []*computePlan
}

type computePlan struct {
	ep    *api.Endpoint
	label string
}

// planProject chooses the blocks of a project and their labels, and notes
// the endpoints it leaves out.
func planProject(p *Project, label string, res *Result) *projectPlan {
	pp := &projectPlan{p: p, label: label}
	branches := map[string]*branchPlan{}
	named := map[string]int{}
	for i := range p.Branches {
		named[p.Branches[i].Name]++
	}
	for i := range p.Endpoints {
		ep := &p.Endpoints[i]
		i := slices.IndexFunc(p.Branches, func(b api.Branch) bool { return b.ID == ep.BranchID })
		switch {
		case i < 0:
			res.LeftOut = append(res.LeftOut, branchGoneLeftOut(label, ep))
			continue
		case ep.Disabled:
			res.LeftOut = append(res.LeftOut, disabledLeftOut(label, ep, &p.Branches[i]))
			continue
		}
		bp := branches[ep.BranchID]
		if bp == nil {
			b := &p.Branches[i]
			bp = &branchPlan{b: b, byID: named[b.Name] > 1}
			branches[ep.BranchID] = bp
			pp.branches = append(pp.branches, bp)
		}
		bp.computes = append(bp.computes, &computePlan{ep: ep})
	}
	// Labels are handed out in an order that does not depend on the
	// service's: by name, then id.
	slices.SortFunc(pp.branches, func(a, b *branchPlan) int {
		return cmp.Or(strings.Compare(a.b.Name, b.b.Name), strings.Compare(a.b.ID, b.b.ID))
	})
	for _, bp := range pp.branches {
		slices.SortFunc(bp.computes, func(a, b *computePlan) int {
			return cmp.Or(cmp.Compare(typeOrder(a.ep.Type), typeOrder(b.ep.Type)),
				strings.Compare(a.ep.Name, b.ep.Name), strings.Compare(a.ep.ID, b.ep.ID))
		})
		bp.leaveOutSameNames(label, res)
		names := make([]string, len(bp.computes))
		for i, c := range bp.computes {
			names[i] = c.ep.Name
		}
		unnamed := func(i int) string { return unnamedLabel(bp.computes[i].ep.Type) }
		for i, label := range (labels{}).assign(names, "compute", unnamed) {
			bp.computes[i].label = label
		}
		// The read_write compute first, then the replicas by label.
		slices.SortFunc(bp.computes, func(a, b *computePlan) int {
			return cmp.Or(cmp.Compare(typeOrder(a.ep.Type), typeOrder(b.ep.Type)), strings.Compare(a.label, b.label))
		})
	}
	return pp
}

// labelBranches labels the branch blocks, by name, after the rule's (which
// shares their namespace), and puts the default branch first, then the
// others by label.
func (pp *projectPlan) labelBranches() {
	taken := labels{}
	if pp.fleet != nil {
		taken[pp.fleet.label] = true
	}
	branchNames := make([]string, len(pp.branches))
	for i, bp := range pp.branches {
		branchNames[i] = bp.b.Name
	}
	for i, label := range taken.assign(branchNames, "branch", func(int) string { return "branch" }) {
		pp.branches[i].label = label
	}
	slices.SortFunc(pp.branches, func(a, b *branchPlan) int {
		if a.b.Default != b.b.Default {
			if a.b.Default {
				return -1
			}
			return 1
		}
		return strings.Compare(a.label, b.label)
	})
}

// leaveOutSameNames keeps, of the endpoints of one name on the branch, the
// first (the read_write one, else the first by id), and leaves the others
// out, saying why: a configuration cannot declare two computes of one name
// on a branch, and a block of another name would rename the endpoint.
func (bp *branchPlan) leaveOutSameNames(projectLabel string, res *Result) {
	kept := map[string]*api.Endpoint{}
	bp.computes = slices.DeleteFunc(bp.computes, func(c *computePlan) bool {
		if c.ep.Name == "" {
			return false
		}
		if first := kept[c.ep.Name]; first != nil {
			res.LeftOut = append(res.LeftOut, sameNameLeftOut(projectLabel, c.ep, first, bp.b))
			return true
		}
		kept[c.ep.Name] = c.ep
		return false
	})
}

func typeOrder(t api.EndpointType) int {
	if t == api.EndpointTypeReadWrite {
		return 0
	}
	return 1
}

// unnamedLabel labels an endpoint without a name: primary for the branch's
// read_write compute, replica for a read replica.
func unnamedLabel(t api.EndpointType) string {
	if t == api.EndpointTypeReadWrite {
		return "primary"
	}
	return "replica"
}

// emptyBlocks is what an empty compute block with the label of each
// planned compute asks for (config.EmptyCompute): the defaults a generated
// block leaves out.
func emptyBlocks(plans []*projectPlan) map[*computePlan]*config.Compute {
	out := map[*computePlan]*config.Compute{}
	for _, pp := range plans {
		for _, bp := range pp.branches {
			for _, c := range bp.computes {
				out[c] = config.EmptyCompute(c.label)
			}
		}
	}
	return out
}

// emptyBody is an empty block as hclwrite writes it; people write {}. No
// string holds it: hclwrite writes a string's line breaks as \n.
var emptyBody = regexp.MustCompile(`\{\n\s*\}`)

// write makes the project's file, starting with the neonform block when
// settings is set.
func (pp *projectPlan) write(defaults map[*computePlan]*config.Compute, settings *Settings, res *Result) (*File, error) {
	f := hclwrite.NewEmptyFile()
	if settings != nil {
		sb := f.Body().AppendNewBlock("neonform", nil).Body()
		if settings.APIURL != "" && settings.APIURL != config.DefaultAPIURL {
			sb.SetAttributeValue("api_url", cty.StringVal(settings.APIURL))
		}
		if settings.OrgID != "" {
			sb.SetAttributeValue("org_id", cty.StringVal(settings.OrgID))
		}
		f.Body().AppendNewline()
	}
	pb := f.Body().AppendNewBlock("project", []string{pp.label}).Body()
	pb.SetAttributeValue("id", cty.StringVal(pp.p.ID))
	file := &File{Name: pp.label + ".hcl", ProjectID: pp.p.ID, Label: pp.label, Branches: len(pp.branches)}
	for _, bp := range pp.branches {
		pb.AppendNewline()
		bb := pb.AppendNewBlock("branch", []string{bp.label}).Body()
		branchName := ""
		switch {
		case bp.byID:
			bb.SetAttributeValue("id", cty.StringVal(bp.b.ID))
		case bp.label != bp.b.Name:
			bb.SetAttributeValue("name", cty.StringVal(bp.b.Name))
			branchName = bp.b.Name
		default:
			branchName = bp.b.Name
		}
		if len(bb.Attributes()) > 0 {
			bb.AppendNewline()
		}
		for _, c := range bp.computes {
			addr := config.AddressOf(pp.label, bp.label, c.label)
			body, err := c.block(bb, defaults)
			if err != nil {
				return nil, err
			}
			// The default branch's read_write compute holds the project's
			// main data: a plan that would delete it fails, until the
			// lifecycle block is dropped (docs/generate.md).
			protect := bp.b.Default && c.ep.Type == api.EndpointTypeReadWrite
			if protect {
				body.AppendNewBlock("lifecycle", nil).Body().SetAttributeValue("prevent_destroy", cty.True)
			}
			gc := &Compute{Address: addr, ProjectID: pp.p.ID, BranchName: branchName, Endpoint: c.ep, PreventDestroy: protect}
			res.Computes = append(res.Computes, gc)
			file.Computes++
		}
	}
	if pp.fleet != nil {
		if err := pp.fleet.write(pb, pp, defaults, file, res); err != nil {
			return nil, err
		}
	}
	src, diags := config.Format(emptyBody.ReplaceAll(f.Bytes(), []byte("{}")), file.Name)
	if diags.HasErrors() {
		return nil, fmt.Errorf("formatting %s (this is a bug in neonform): %s", file.Name, diags.String())
	}
	file.Src = src
	return file, nil
}
