package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
)

// hover says what is under the cursor: of a size or suspend timeout, what
// the compute gets and costs; of an argument or a block, what it does; of
// var.x or local.y, its declaration and value.
func (s *server) hover(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.HoverParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	at, ok := s.at(p.TextDocument.URI, p.Position)
	if !ok {
		return nil, nil
	}
	var text string
	var rng hcl.Range
	switch sp := at.spot; {
	case sp.ref != nil && refName(sp.ref.Traversal) != "":
		text, rng = at.namedValueWords(refName(sp.ref.Traversal)), sp.ref.SrcRange
	case sp.attr != nil:
		text, rng = at.argumentWords(sp.path(), sp.attr), sp.attr.SrcRange
	case sp.header:
		b := sp.block()
		text, rng = blockWords(b.Type), b.DefRange()
	}
	if text == "" {
		return nil, nil
	}
	r := at.dir.rangeIn(rng)
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: text}, Range: &r}, nil
}

// cursor is a request's place: the file, its directory as last checked,
// its syntax, and what is at the position.
type cursor struct {
	path   string
	dir    *directory
	text   []byte
	body   *hclsyntax.Body
	offset int
	spot   spot
}

// at reads the file of a request and finds what is at the position; false
// for a file that is not a configuration file.
func (s *server) at(u protocol.DocumentURI, pos protocol.Position) (*cursor, bool) {
	path := pathOf(u)
	if !strings.HasSuffix(path, ".hcl") {
		return nil, false
	}
	d := s.directoryOf(path)
	text := d.text(path)
	if doc := s.docs[path]; doc != nil {
		text = doc.text
	}
	c := &cursor{path: path, dir: d, text: text, body: syntaxOf(text, path), offset: offsetOf(text, pos)}
	c.spot = spotAt(c.body, c.offset)
	return c, true
}

func blockWords(typ string) string {
	if about := aboutBlock(typ); about != "" {
		return fmt.Sprintf("**%s** block: %s", typ, about)
	}
	return ""
}

// namedValueWords is a variable's or local's value and where it is
// declared; a sensitive one's value is never shown.
func (c *cursor) namedValueWords(ref string) string {
	nv, ok := c.dir.cfg.NamedValue(ref)
	if !ok {
		return fmt.Sprintf("`%s` is not declared in %s.", ref, c.dir.path)
	}
	value := nv.Value
	if value == "" {
		value = "(no value: see the diagnostics)"
	}
	return fmt.Sprintf("```hcl\n%s = %s\n```\nDeclared at %s:%d.", ref, value, nv.DeclRange.Filename, nv.DeclRange.Start.Line)
}

// argumentWords is what the reference says of an argument, what changing
// it does to a running compute, and, for a size or a suspend timeout, what
// the compute gets and costs.
func (c *cursor) argumentWords(path []string, a *hclsyntax.Attribute) string {
	var parts []string
	if d, ok := aboutArgument(path, a.Name); ok {
		head := fmt.Sprintf("**%s** (%s", a.Name, d.kind)
		if d.deflt != "" {
			head += ", default " + d.deflt
		}
		parts = append(parts, head+"): "+d.meaning)
	}
	inCompute := len(path) > 0 && (path[len(path)-1] == "compute" || path[len(path)-1] == "defaults")
	if inCompute {
		if e, ok := changeEffect(a.Name); ok {
			parts = append(parts, fmt.Sprintf("Changing it on a running compute: **%s**.", e))
		}
		if managed.ScalingArgument(a.Name) {
			for _, cp := range c.computesOf(c.spot.block()) {
				parts = append(parts, c.dir.sizeWords(cp))
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// changeEffect is what changing an argument of a compute block does, from
// the attribute table (internal/managed, through diff.ChangeEffect; size sets
// both ends of a size).
func changeEffect(arg string) (diff.Disruption, bool) {
	worst, found := diff.None, false
	for _, m := range managed.All {
		if m.SetBy(arg) {
			if e, ok := diff.ChangeEffect(m.Name); ok {
				worst, found = max(worst, e), true
			}
		}
	}
	return worst, found
}

// computesOf are the computes a compute (or defaults) block makes: one, or
// one per for_each key, as the last check decoded them.
func (c *cursor) computesOf(b *hclsyntax.Block) []*config.Compute {
	if b == nil {
		return nil
	}
	start := b.DefRange().Start.Byte
	var out []*config.Compute
	cfg := c.dir.cfg
	all := append(cfg.Computes(), cfg.AllRuleComputes()...)
	for _, p := range cfg.Projects {
		if p.Defaults != nil {
			all = append(all, p.Defaults)
		}
	}
	for _, cp := range all {
		if cp.DeclRange.Filename == c.path && cp.DeclRange.Start.Byte == start {
			out = append(out, cp)
		}
	}
	return out
}

// sizeWords is what a compute gets and costs a month on the account's plan.
func (d *directory) sizeWords(cp *config.Compute) string {
	if diff.SizeSensitive(cp) {
		return fmt.Sprintf("`%s`: %s.", cp.Address, diff.HiddenSize)
	}
	r := sizing.Describe(cp.Size())
	lines := []string{fmt.Sprintf("`%s`: %s; %s.", cp.Address, r, r.Extra())}
	if hidden, vars := cp.SuspendSensitive(); hidden {
		lines = append(lines, "Scale to zero: "+config.HiddenValue(vars)+".")
	} else if cp.NeverSuspends() {
		lines = append(lines, "Never scales to zero: it runs, and costs, all month.")
	} else {
		lines = append(lines, fmt.Sprintf("Scales to zero after %s without activity.", cp.SuspendAfter()))
	}
	lines = append(lines, d.costWords(cp))
	return strings.Join(lines, "\n")
}

// costWords is a compute's cost a month, as validate lists it, and on what price.
func (d *directory) costWords(cp *config.Compute) string {
	settings := d.cfg.Settings
	price := settings.Price()
	if !price.Known() && price.IncludedCUHoursPerProject == 0 {
		return "Cost: no price to read it by; set account_tier (\"launch\", \"scale\") or price_per_cu_hour in the neonform block (docs/cost.md)."
	}
	on := "a price of " + diff.USD(price.USDPerCUHour) + " a CU-hour"
	if plan, ok := sizing.PlanOf(settings.AccountTier); ok && settings.PricePerCUHour == 0 {
		on = "the " + plan.Name + " plan"
	}
	r, ok := diff.ConfiguredCost(cp, price)
	if !ok {
		return "Cost a month: not shown (a sensitive value)."
	}
	return fmt.Sprintf("Cost a month on %s: %s.", on, view.MonthlyCost(r, cp.ActiveHours))
}
