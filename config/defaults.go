package config

import (
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/internal/managed"
)

// DefaultsLabel ends the address of a project's defaults ("shop.defaults"),
// which the plan and the state name them by.
const DefaultsLabel = "defaults"

// decodeDefaults reads a project's defaults block: the arguments of a
// compute block that the project's default_endpoint_settings have (managed
// attributes marked ProjectDefault), each decoded and checked as in a compute
// block, with the same defaults for what it leaves out.
func (l *loader) decodeDefaults(p *Project, b *hclsyntax.Block) {
	if p.Defaults != nil {
		l.errorf(b.DefRange(), "Duplicate defaults block",
			"Project %s already has a defaults block at %s; write its settings in one.", p.Label, where(p.Defaults.DeclRange))
		return
	}
	cp := EmptyCompute(DefaultsLabel) // a compute block's defaults for what it leaves out
	cp.Address, cp.ProjectLabel, cp.DeclRange = p.Label+"."+DefaultsLabel, p.Label, b.DefRange()
	content, diags := bodyContent(b.Body, defaultsSchema, "a defaults block")
	l.diags = append(l.diags, diags...)
	c := &computeAttrs{l: l, cp: cp, attrs: content.Attributes, misspelt: content.Misspelt}
	for _, name := range slices.Sorted(maps.Keys(content.Attributes)) { // the same model every time
		cp.Ranges.Set(name, content.Attributes[name].SrcRange)
	}
	done := map[string]bool{}
	for _, a := range managed.All {
		if !a.ProjectDefault || len(a.Arguments) == 0 || done[a.Arguments[0]] {
			continue
		}
		done[a.Arguments[0]] = true
		computeDecoders[a.Arguments[0]](c, b, instance{label: DefaultsLabel})
	}
	c.checkSuspendForSize(l.cfg.Settings.AccountTier)
	p.Defaults = cp
}
