package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// blockSchemas are the schemas of the blocks, by their path of block types
// from the top of a file ("project.branch.compute"), as the decoders read
// them: what an editor may offer at a place (neonform lsp).
var blockSchemas = map[string]*hcl.BodySchema{
	"":                                   rootSchema,
	"neonform":                           settingsSchema,
	"neonform.budget":                    budgetSchema,
	"variable":                           variableSchema,
	"project":                            projectSchema,
	"project.budget":                     budgetSchema,
	"project.defaults":                   defaultsSchema,
	"project.branch":                     branchSchema,
	"project.branches":                   ruleSchema,
	"project.branch.compute":             computeSchema,
	"project.branches.compute":           computeSchema,
	"project.branch.compute.lifecycle":   lifecycleSchema,
	"project.branches.compute.lifecycle": lifecycleSchema,
	"moved":                              movedSchema,
	"removed":                            removedSchema,
	"removed.lifecycle":                  removedLifecycleSchema,
}

// BlockNames are the arguments and the nested blocks (with their label
// names) a block takes, given its path of block types from the top of a
// file (nil for the top level); ok is false for a block neonform does not
// read, or one whose arguments are any names (locals).
func BlockNames(path []string) (arguments []string, blocks []hcl.BlockHeaderSchema, ok bool) {
	s, ok := blockSchemas[strings.Join(path, ".")]
	if !ok {
		return nil, nil, false
	}
	for _, a := range s.Attributes {
		arguments = append(arguments, a.Name)
	}
	return arguments, s.Blocks, true
}

// TierNames are the values account_tier takes.
func TierNames() []string { return tierNames() }
