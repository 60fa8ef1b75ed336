package config

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// coalesceFunc is coalesce as Terraform has it: the first argument that is
// neither null nor an empty string. go-cty's own skips only null, so the
// fallback people write, coalesce(env("X"), "default"), would never fall back
// (env gives "" for an unset variable).
var coalesceFunc = function.New(&function.Spec{
	Description: `Returns the first of the arguments that is neither null nor an empty string.`,
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, v := range args {
			types[i] = v.Type()
		}
		ty, _ := convert.UnifyUnsafe(types)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type, or convert to one (a number converts to a string)")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, ty cty.Type) (cty.Value, error) {
		for _, v := range args {
			// The type function checked that every argument converts.
			v, _ = convert.Convert(v, ty)
			switch {
			case !v.IsKnown():
				return cty.UnknownVal(ty), nil
			case v.IsNull():
				continue
			case ty == cty.String && v.RawEquals(cty.StringVal("")):
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New(`every argument is null or an empty string ("")`)
	},
})
