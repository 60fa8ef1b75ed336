package generate

import (
	"fmt"

	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
)

// writeCompute sets in body the attributes of a compute block that make it
// describe live, given what an empty block of the same label means (def):
// the arguments the attribute table writes for them (diff.BlockArguments).
// An endpoint without a name needs no name written: a block that writes
// none leaves it unnamed (def is what the block asks of this endpoint,
// diff.WantedValues). The round trip (check.go) holds each to reading back
// as live.
func writeCompute(body *hclwrite.Body, def, live diff.Values) error {
	args, err := diff.BlockArguments(def, live)
	if err != nil {
		return err
	}
	for _, a := range args {
		body.SetAttributeValue(a.Name, a.Value)
	}
	return nil
}

// block appends the compute block of c to body: what describes its
// endpoint, given what an empty block of its label means (defaults).
func (c *computePlan) block(body *hclwrite.Body, defaults map[*computePlan]*config.Compute) (*hclwrite.Body, error) {
	def := defaults[c]
	if def == nil {
		return nil, fmt.Errorf("no empty block was loaded for compute %s (this is a bug in neonform)", c.label)
	}
	cb := body.AppendNewBlock("compute", []string{c.label}).Body()
	return cb, writeCompute(cb, diff.WantedValues(def, c.ep.BranchID, c.ep), diff.LiveValues(c.ep))
}

// kindOf is what people call an endpoint of type t.
func kindOf(t api.EndpointType) string {
	if t == api.EndpointTypeReadOnly {
		return "read replica"
	}
	return "read_write compute"
}
