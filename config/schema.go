package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/internal/managed"
)

// One explicit schema per block, as Terraform's configs package does, so that every
// message about a misplaced or misspelt name is ours. Nothing is marked Required here:
// each required attribute is checked by its decoder, which knows how to explain it.
var (
	rootSchema = &hcl.BodySchema{
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "neonform"},
			{Type: "variable", LabelNames: []string{"name"}},
			{Type: "locals"},
			{Type: "project", LabelNames: []string{"name"}},
			{Type: "moved"},
			{Type: "removed"},
		},
	}
	settingsSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "api_url"}, {Name: "org_id"}, {Name: "account_tier"}, {Name: "state"}, {Name: "price_per_cu_hour"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "budget"}},
	}
	variableSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "type"}, {Name: "default"}, {Name: "description"}, {Name: "sensitive"}},
	}
	projectSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "id"}, {Name: "for_each"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "branch", LabelNames: []string{"name"}},
			{Type: "branches", LabelNames: []string{"name"}}, // a branch rule (rules.go)
			{Type: "defaults"}, // the project's compute defaults (defaults.go)
			{Type: "budget"},   // the project's budget (cost.go)
		},
	}
	branchSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "name"}, {Name: "id"}, {Name: "exclusive"}, {Name: "for_each"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "compute", LabelNames: []string{"name"}}},
	}
	// computeSchema takes the arguments of the managed attributes
	// (internal/managed), for_each, and the usage hint, which is not sent to
	// the service (cost.go).
	computeSchema = &hcl.BodySchema{
		Attributes: append(argumentSchemas(managed.Arguments()), hcl.AttributeSchema{Name: "for_each"}, hcl.AttributeSchema{Name: activeHoursArgument}),
		Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}},
	}
	// defaultsSchema takes the arguments of the managed attributes a
	// project's defaults set (internal/managed, ProjectDefault).
	defaultsSchema  = &hcl.BodySchema{Attributes: argumentSchemas(managed.ProjectDefaultArguments())}
	lifecycleSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "prevent_destroy"}, {Name: "allow_restart"}},
	}
	movedSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "from"}, {Name: "to"}},
	}
)

func argumentSchemas(names []string) []hcl.AttributeSchema {
	out := make([]hcl.AttributeSchema, len(names))
	for i, n := range names {
		out[i] = hcl.AttributeSchema{Name: n}
	}
	return out
}

// apiNames maps the service's field names, which people copy from API responses, to
// the attribute that means the same thing here: each managed attribute's own
// (internal/managed), and the ids of projects and branches.
var apiNames = withAPINames(map[string]string{
	"project_id": "id",
	"branch_id":  "id",
})

// withAPINames adds to m the service's name of each managed attribute that
// a compute block sets under another name.
func withAPINames(m map[string]string) map[string]string {
	for _, a := range managed.All {
		if a.API != "" && a.API != a.Name && a.SetBy(a.Name) {
			m[a.API] = a.Name
		}
	}
	return m
}

// content is a block body split by the schema: the attributes by name and the
// blocks in source order. Names the schema does not know are reported, not kept.
type content struct {
	Attributes map[string]*hclsyntax.Attribute
	Blocks     []*hclsyntax.Block
	// Misspelt holds the known names that a reported unknown argument was
	// probably meant to be, so decoders do not also report them as missing.
	Misspelt map[string]bool
}

// bodyContent checks body against schema. what names the enclosing block for
// messages, with its article ("a compute block", "the top level of a file"). Blocks whose labels are wrong are reported
// and left out, so decoders only see well-formed blocks.
func bodyContent(body *hclsyntax.Body, schema *hcl.BodySchema, what string) (*content, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	c := &content{Attributes: map[string]*hclsyntax.Attribute{}}
	attrNames := make([]string, 0, len(schema.Attributes))
	for _, a := range schema.Attributes {
		attrNames = append(attrNames, a.Name)
	}
	blockNames := make([]string, 0, len(schema.Blocks))
	blocks := map[string]hcl.BlockHeaderSchema{}
	for _, b := range schema.Blocks {
		blockNames = append(blockNames, b.Type)
		blocks[b.Type] = b
	}

	for _, attr := range sortedAttributes(body) {
		name := attr.Name
		if contains(attrNames, name) {
			c.Attributes[name] = attr
			continue
		}
		d := &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Subject:  attr.NameRange.Ptr(),
			Context:  attr.SrcRange.Ptr(),
		}
		switch _, isBlock := blocks[name]; {
		case isBlock:
			d.Detail = fmt.Sprintf("%s is a block, not an argument: write %s { ... } without the equals sign.", name, name)
		case name == "count" && contains(attrNames, "for_each"):
			d.Detail = "neonform has for_each, not count: instances are named by keys, so that removing one does not renumber the others. Write for_each = toset([\"a\", \"b\"]), and use each.key where count.index would go."
		case secretNames[name]:
			d.Detail = fmt.Sprintf("The API key is never written in configuration files, which live in Git: neonform reads it from the environment variable NEON_API_KEY. Remove %s.", name)
		default:
			d.Detail = fmt.Sprintf("An argument named %q is not expected in %s.", name, what)
			text, meant := hint(name, attrNames, what, attrNames, blockNames, attributeHomes, false)
			withNear(d, nearMiss(len(d.Detail), true, meant)).Detail += text
			if meant != "" {
				if c.Misspelt == nil {
					c.Misspelt = map[string]bool{}
				}
				c.Misspelt[meant] = true
			}
		}
		diags = append(diags, d)
	}

	for _, block := range body.Blocks {
		bs, known := blocks[block.Type]
		if !known {
			d := &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Subject:  block.TypeRange.Ptr(),
				Context:  hcl.RangeBetween(block.TypeRange, block.OpenBraceRange).Ptr(),
			}
			if contains(attrNames, block.Type) {
				d.Detail = fmt.Sprintf("%s is an argument, not a block: write %s = { ... } with an equals sign.", block.Type, block.Type)
			} else {
				d.Detail = fmt.Sprintf("A block of type %q is not expected in %s.", block.Type, what)
				text, meant := hint(block.Type, blockNames, what, attrNames, blockNames, blockHomes, true)
				withNear(d, nearMiss(len(d.Detail), true, meant)).Detail += text
			}
			diags = append(diags, d)
			continue
		}
		if d := checkLabels(block, bs); d != nil {
			diags = append(diags, d)
			continue
		}
		c.Blocks = append(c.Blocks, block)
	}
	return c, diags
}

// checkLabels reports a block with the wrong number of labels.
func checkLabels(block *hclsyntax.Block, bs hcl.BlockHeaderSchema) *hcl.Diagnostic {
	want := len(bs.LabelNames)
	got := len(block.Labels)
	switch {
	case got == want:
		return nil
	case got < want:
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Missing %s label", block.Type),
			Detail: fmt.Sprintf("A %s block needs a %s: %s %q { ... }.",
				block.Type, bs.LabelNames[0], block.Type, exampleLabel(block.Type)),
			Subject: hcl.RangeBetween(block.TypeRange, block.OpenBraceRange).Ptr(),
		}
	default:
		extra := block.LabelRanges[want]
		var detail string
		if want == 0 {
			detail = fmt.Sprintf("A %s block takes no label: write %s { ... }.", block.Type, block.Type)
		} else {
			detail = fmt.Sprintf("A %s block takes one label, its %s: %s %q { ... }.", block.Type, bs.LabelNames[0], block.Type, exampleLabel(block.Type))
		}
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Extra label on %s block", block.Type),
			Detail:   detail,
			Subject:  extra.Ptr(),
			Context:  hcl.RangeBetween(block.TypeRange, block.OpenBraceRange).Ptr(),
		}
	}
}

func exampleLabel(blockType string) string {
	switch blockType {
	case "project":
		return "shop"
	case "branch":
		return "main"
	case "variable":
		return "replica_cu"
	}
	return "primary"
}

// sortedAttributes returns a body's attributes in source order, so diagnostics come
// out in the order a person reads the file.
func sortedAttributes(body *hclsyntax.Body) []*hclsyntax.Attribute {
	out := make([]*hclsyntax.Attribute, 0, len(body.Attributes))
	for _, a := range body.Attributes {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SrcRange.Start.Byte < out[j].SrcRange.Start.Byte })
	return out
}

// attributeHomes and blockHomes say where a name that is valid elsewhere belongs,
// for the common mistake of writing it one level too high or too low. Names that
// belong to several blocks (id, name) are left out: the list of what fits says more.
var (
	attributeHomes = withHomes(map[string]string{
		"prevent_destroy": "lifecycle", "allow_restart": "lifecycle",
		"exclusive": "branch",
		"api_url":   "neonform", "org_id": "neonform", "account_tier": "neonform", "state": "neonform", "price_per_cu_hour": "neonform",
		"monthly_usd_max": "budget", activeHoursArgument: "compute",
		"from": "moved", "to": "moved",
		"default": "variable", "description": "variable", "sensitive": "variable",
	})
	blockHomes = map[string]string{
		"branch": "project", "compute": "branch", "lifecycle": "compute", "defaults": "project", "budget": "neonform",
	}
	// secretNames are what people call the API key when they try to write it in a file.
	secretNames = map[string]bool{"api_key": true, "apikey": true, "token": true, "neon_api_key": true}
)

// withHomes adds to m the home of each managed attribute's arguments.
func withHomes(m map[string]string) map[string]string {
	for _, a := range managed.All {
		for _, arg := range a.Arguments {
			if a.Home != "" {
				m[arg] = a.Home
			}
		}
	}
	return m
}

// hint is the name meant when one is close (the diagnostic's near-miss),
// otherwise text: where the name belongs if it belongs somewhere else,
// otherwise the list of what fits.
func hint(given string, candidates []string, what string, attrs, blocks []string, homes map[string]string, block bool) (text, meant string) {
	if s := suggest(given, candidates); s != "" {
		return "", s
	}
	if home, ok := homes[given]; ok && !strings.HasPrefix(what, "a "+home+" ") {
		return fmt.Sprintf(" %s goes inside a %s block%s.", given, home, homeExample(home, given, block)), ""
	}
	return accepted(what, attrs, blocks), ""
}

// homeExample shows where a name goes: `, as in branch "main" { exclusive = ... }`
// for an argument, `, as in project "shop" { branch "main" { ... } }` for a block.
func homeExample(home, given string, block bool) string {
	header := map[string]string{
		"project": `project "shop"`, "branch": `branch "main"`, "compute": `compute "primary"`,
		"variable": `variable "replica_cu"`,
	}[home]
	if header == "" {
		header = home
	}
	if block {
		return fmt.Sprintf(", as in %s { %s { ... } }", header, blockHeader(given))
	}
	return fmt.Sprintf(", as in %s { %s = ... }", header, given)
}

// blockHeader is how a block of this type starts, with an example label.
func blockHeader(blockType string) string {
	switch blockType {
	case "branch", "compute", "project", "variable":
		return fmt.Sprintf("%s %q", blockType, exampleLabel(blockType))
	}
	return blockType
}

// suggest returns the name closest to given within two edits (case ignored), or
// else a longer name that given is a word of (replica for replica_cu), or "".
func suggest(given string, names []string) string {
	if alias, ok := apiNames[given]; ok && contains(names, alias) {
		return alias
	}
	best, bestDist := "", 3
	lower := strings.ToLower(given)
	for _, n := range names {
		if d := levenshtein.Distance(lower, n, nil); d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" && len(lower) >= 3 {
		// A word of a longer name: replica for replica_cu.
		for _, n := range names {
			if strings.HasPrefix(n, lower+"_") || strings.HasSuffix(n, "_"+lower) {
				return n
			}
		}
	}
	return best
}

// accepted lists what a block may contain, for when no single name is close.
func accepted(what string, attrs, blocks []string) string {
	var parts []string
	if len(attrs) > 0 {
		parts = append(parts, "arguments "+strings.Join(attrs, ", "))
	}
	if len(blocks) > 0 {
		parts = append(parts, "blocks "+strings.Join(blocks, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf(" %s takes %s.", strings.ToUpper(what[:1])+what[1:], strings.Join(parts, "; "))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
