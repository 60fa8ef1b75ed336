package generate

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/sizing"
)

// refusedBlocks finds the computes whose block the configuration language
// refuses, with why: an endpoint the service keeps at a value neonform does
// not accept (a size above the free tier's cap in a configuration whose
// account_tier is "free", a suspend timeout outside the range). Every block
// is loaded at once; only when that fails is each loaded alone, to tell
// which.
func refusedBlocks(plans []*projectPlan, defaults map[*computePlan]*config.Compute, o Options) (map[*computePlan]*diag.Diagnostic, error) {
	var all []*computePlan
	for _, pp := range plans {
		for _, bp := range pp.branches {
			all = append(all, bp.computes...)
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	load := func(cs []*computePlan) (*diag.Diagnostic, error) {
		src, err := blocksAlone(cs, defaults, o.Tier)
		if err != nil {
			return nil, err
		}
		_, diags := config.LoadSources(o.Dir, map[string][]byte{"check.hcl": src}, config.Options{})
		for i, d := range diags {
			if d.Severity == diag.SeverityError {
				return &diags[i], nil
			}
		}
		return nil, nil
	}
	why, err := load(all)
	if why == nil || err != nil {
		return nil, err
	}
	refused := map[*computePlan]*diag.Diagnostic{}
	for _, c := range all {
		why, err := load([]*computePlan{c})
		if err != nil {
			return nil, err
		}
		if why != nil {
			refused[c] = why
		}
	}
	if len(refused) == 0 {
		return nil, fmt.Errorf("the generated compute blocks do not load together, though each does alone (this is a bug in neonform): %s", why.String())
	}
	return refused, nil
}

// blocksAlone is a configuration of compute blocks, each alone on a branch
// of its own, under the account tier.
func blocksAlone(cs []*computePlan, defaults map[*computePlan]*config.Compute, tier sizing.Tier) ([]byte, error) {
	f := hclwrite.NewEmptyFile()
	if tier != "" {
		f.Body().AppendNewBlock("neonform", nil).Body().SetAttributeValue("account_tier", cty.StringVal(string(tier)))
	}
	pb := f.Body().AppendNewBlock("project", []string{"check"}).Body()
	pb.SetAttributeValue("id", cty.StringVal("check"))
	for i, c := range cs {
		bb := pb.AppendNewBlock("branch", []string{fmt.Sprintf("b%d", i)}).Body()
		if _, err := c.block(bb, defaults); err != nil {
			return nil, err
		}
	}
	return f.Bytes(), nil
}

// leaveOut drops the refused computes of a project, and the branches left
// with none, saying why.
func (pp *projectPlan) leaveOut(refused map[*computePlan]*diag.Diagnostic, res *Result) {
	for _, bp := range pp.branches {
		bp.computes = slices.DeleteFunc(bp.computes, func(c *computePlan) bool {
			why, ok := refused[c]
			if ok {
				res.LeftOut = append(res.LeftOut, refusedLeftOut(pp.label, c.ep, bp.b, why))
			}
			return ok
		})
	}
	pp.branches = slices.DeleteFunc(pp.branches, func(bp *branchPlan) bool { return len(bp.computes) == 0 })
}
