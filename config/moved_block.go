package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// MovedBlock is the moved block that takes the compute (or branch, or
// project) at from to to, written as neonform suggests it: on several
// lines, formatted as fmt formats it, ready to paste into a file. Addresses
// are written bare, as Terraform writes them (shop.previews["preview/pr-1"].primary),
// with each key an HCL string, so that a key holding quotes, backslashes or
// "${" reads back as itself; an address whose first label is a word HCL or
// a moved block reads otherwise (var, true, ...) is written as a string.
func MovedBlock(from, to string) string {
	f := hclwrite.NewEmptyFile()
	body := f.Body().AppendNewBlock("moved", nil).Body()
	setAddress(body, "from", from)
	setAddress(body, "to", to)
	return strings.TrimRight(string(hclwrite.Format(f.Bytes())), "\n")
}

// notBare are the first labels a bare address cannot have: moveAddress
// reads var, local and each as values, and HCL reads the rest as keywords.
var notBare = map[string]bool{"var": true, "local": true, "each": true, "true": true, "false": true, "null": true, "for": true, "in": true, "if": true}

func setAddress(body *hclwrite.Body, name, addr string) {
	parts, err := ParsePartialAddress(addr)
	if err != nil || notBare[labelOf(parts[0])] {
		body.SetAttributeValue(name, cty.StringVal(addr))
		return
	}
	var t hcl.Traversal
	for i, part := range parts {
		label, key, keyed := SplitInstance(part)
		if i == 0 {
			t = append(t, hcl.TraverseRoot{Name: label})
		} else {
			t = append(t, hcl.TraverseAttr{Name: label})
		}
		if keyed {
			t = append(t, hcl.TraverseIndex{Key: cty.StringVal(key)})
		}
	}
	body.SetAttributeTraversal(name, t)
}

func labelOf(part string) string {
	label, _, _ := SplitInstance(part)
	return label
}
