package config

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// Ranges are the source ranges of a compute's attributes, by the attribute's
// name in the file. A compute has a few, so they are a short list with
// positions in 32 bits: a map of hcl.Range per compute took 70 MB of the
// 100,000 computes of the largest plan measured (docs/PERFORMANCE.md), the
// list a tenth of that. The zero value is empty and ready to use.
type Ranges struct {
	list []namedRange
}

type namedRange struct {
	attr, filename string
	start, end     pos32
}

// pos32 is an hcl.Pos in 32 bits a field: configuration files are at most
// MaxBytes long.
type pos32 struct{ line, column, byte int32 }

func pos32Of(p hcl.Pos) pos32 { return pos32{int32(p.Line), int32(p.Column), int32(p.Byte)} }

func (p pos32) pos() hcl.Pos {
	return hcl.Pos{Line: int(p.line), Column: int(p.column), Byte: int(p.byte)}
}

// Set records the range of attr, replacing any recorded before.
func (rs *Ranges) Set(attr string, r hcl.Range) {
	nr := namedRange{attr: attr, filename: r.Filename, start: pos32Of(r.Start), end: pos32Of(r.End)}
	for i := range rs.list {
		if rs.list[i].attr == attr {
			rs.list[i] = nr
			return
		}
	}
	rs.list = append(rs.list, nr)
}

// Get returns the range of attr, if it was recorded.
func (rs Ranges) Get(attr string) (hcl.Range, bool) {
	for _, nr := range rs.list {
		if nr.attr == attr {
			return hcl.Range{Filename: nr.filename, Start: nr.start.pos(), End: nr.end.pos()}, true
		}
	}
	return hcl.Range{}, false
}

// grow makes room for n more ranges.
func (rs *Ranges) grow(n int) { rs.list = slices.Grow(rs.list, n) }
