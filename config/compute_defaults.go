package config

import (
	"github.com/neonform/neonform/internal/managed"
)

// EmptyCompute is what a compute block labelled label that writes nothing
// asks for: every managed attribute at its default (managed.Empty, the
// attribute table's Default of each), restarts allowed. A block's
// arguments then set what it writes (decodeCompute); generate leaves out of
// a block what equals this.
func EmptyCompute(label string) *Compute {
	v := managed.Empty(label)
	return &Compute{Label: label, AllowRestart: true, Type: ComputeType(v.Type), Applied: v.Applied}
}
