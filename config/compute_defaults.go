package config

import (
	"maps"

	"github.com/neonform/neonform/internal/managed"
)

// computeFields set the Compute's field of each managed attribute that a
// compute block holds to v, a value as the attribute's Default gives it;
// false when v is not of the field's type. TestEveryDefaultIsApplied fails
// for an attribute whose default has no field to go in.
var computeFields = map[*managed.Attribute]func(cp *Compute, v any) bool{
	managed.Type: func(cp *Compute, v any) bool {
		s, ok := v.(string)
		if ok {
			cp.Type = ComputeType(s)
		}
		return ok
	},
	managed.MinCU:          func(cp *Compute, v any) bool { return setTo(&cp.MinCU, v) },
	managed.MaxCU:          func(cp *Compute, v any) bool { return setTo(&cp.MaxCU, v) },
	managed.SuspendTimeout: func(cp *Compute, v any) bool { return setTo(&cp.SuspendTimeoutSeconds, v) },
	managed.Disabled:       func(cp *Compute, v any) bool { return setTo(&cp.Disabled, v) },
	managed.Name:           func(cp *Compute, v any) bool { return setTo(&cp.Name, v) },
	managed.PgSettings: func(cp *Compute, v any) bool {
		m, ok := v.(map[string]string)
		// Each compute's own map, never nil (managed.Settings): no two
		// computes share the default's.
		cp.PgSettings = maps.Clone(managed.Settings(m))
		return ok
	},
}

func setTo[T any](field *T, v any) bool {
	x, ok := v.(T)
	if ok {
		*field = x
	}
	return ok
}

// computeDefaults set what a compute block that writes none of an
// attribute's arguments asks for, each attribute's managed.Default; made
// once, not for each of 100,000 blocks.
var computeDefaults = func() []func(cp *Compute, label string) {
	var out []func(*Compute, string)
	for _, a := range managed.All {
		set := computeFields[a]
		if set == nil || a.Default.Placed {
			continue // the block's place says it (the branch); else TestEveryDefaultIsApplied fails
		}
		d := a.Default
		out = append(out, func(cp *Compute, label string) {
			if v, ok := d.Of(label); ok {
				set(cp, v)
			}
		})
	}
	return out
}()

// EmptyCompute is what a compute block labelled label that writes nothing
// asks for: every managed attribute at its default, restarts allowed. A
// block's arguments then set what it writes (decodeCompute); generate leaves
// out of a block what equals this.
func EmptyCompute(label string) *Compute {
	cp := &Compute{Label: label, AllowRestart: true}
	for _, set := range computeDefaults {
		set(cp, label)
	}
	return cp
}
