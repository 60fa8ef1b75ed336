package config

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// A compute's ranges read back as they were set, the last one set for a
// name; Range falls back on the block for an attribute not written.
func TestComputeRanges(t *testing.T) {
	at := func(file string, line, col, byte int) hcl.Range {
		return hcl.Range{Filename: file, Start: hcl.Pos{Line: line, Column: col, Byte: byte}, End: hcl.Pos{Line: line, Column: col + 9, Byte: byte + 9}}
	}
	block, size, maxCU := at("a.hcl", 3, 5, 40), at("a.hcl", 4, 7, 60), at("b.hcl", 1<<20, 2, 8<<20)
	c := &Compute{DeclRange: block}
	c.Ranges.Set("max_cu", size)
	c.Ranges.Set("size", size)
	c.Ranges.Set("max_cu", maxCU)
	for attr, want := range map[string]hcl.Range{"size": size, "max_cu": maxCU, "min_cu": block} {
		if got := c.Range(attr); got != want {
			t.Errorf("Range(%q) = %v, want %v", attr, got, want)
		}
	}
	if _, ok := c.Ranges.Get("min_cu"); ok {
		t.Errorf("min_cu was never set, but Get finds it")
	}
}
