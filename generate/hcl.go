package generate

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// writeCompute sets in body the attributes of a compute block that make it
// describe live, given what an empty block of the same label means (def):
// exactly the attributes that differ from def by the attribute table's
// equality rules, so a value at the service's default is left out. A size is
// written whole, as size when it is fixed. An endpoint without a name needs
// no name written: a block that writes none leaves it unnamed (def is what
// the block asks of this endpoint, diff.WantedValues).
func writeCompute(body *hclwrite.Body, def, live diff.Values) error {
	sizeDone, settingsDone := false, false
	for _, a := range diff.Differences(def, live) {
		switch {
		case a.Name == "type":
			body.SetAttributeValue("type", cty.StringVal(string(live.Type)))
		case a.Name == "min_cu" || a.Name == "max_cu":
			if sizeDone {
				continue
			}
			sizeDone = true
			if live.MinCU == live.MaxCU {
				body.SetAttributeValue("size", number(live.MinCU))
				continue
			}
			body.SetAttributeValue("min_cu", number(live.MinCU))
			body.SetAttributeValue("max_cu", number(live.MaxCU))
		case strings.HasPrefix(a.Name, "pg_settings."):
			if settingsDone {
				continue
			}
			settingsDone = true
			m := make(map[string]cty.Value, len(live.PgSettings))
			for k, v := range live.PgSettings {
				m[k] = cty.StringVal(v)
			}
			body.SetAttributeValue("pg_settings", cty.MapVal(m))
		case a.Name == "suspend_timeout":
			// The table shows a timeout as the configuration writes it
			// ("90s", "1h30m", "never"); the round trip (check.go) holds it to that.
			_, after := a.Values()
			body.SetAttributeValue("suspend_timeout", cty.StringVal(after))
		case a.Name == "name":
			body.SetAttributeValue("name", cty.StringVal(live.Name))
		case a.Name == "disabled":
			body.SetAttributeValue("disabled", cty.BoolVal(live.Disabled))
		default:
			return fmt.Errorf("generate does not know how to write the attribute %s", a.Name)
		}
	}
	return nil
}

// number is a size as the configuration writes it: 0.25, 1, 4.
func number(cu float64) cty.Value {
	return cty.NumberVal(new(big.Float).SetFloat64(cu))
}

// kindOf is what people call an endpoint of type t.
func kindOf(t api.EndpointType) string {
	if t == api.EndpointTypeReadOnly {
		return "read replica"
	}
	return "read_write compute"
}
