package lsp

import (
	"path/filepath"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// document is a file the editor has open: its text as the editor holds it.
type document struct {
	path    string
	version int32
	text    []byte
}

// pathOf is the file a document URI names, cleaned.
func pathOf(u protocol.DocumentURI) string {
	return filepath.Clean(uri.URI(u).Filename())
}

// uriOf is the document URI of a file.
func uriOf(path string) protocol.DocumentURI {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return protocol.DocumentURI(uri.File(abs))
}

// The protocol counts a line's characters in UTF-16 code units, hcl in
// bytes: offsetOf and positionOf convert between them on the file's text.

// offsetOf is the byte offset of an editor position in text; a position
// past a line's end is its end, past the text the text's end.
func offsetOf(text []byte, p protocol.Position) int {
	line, off := uint32(0), 0
	for off < len(text) && line < p.Line {
		if text[off] == '\n' {
			line++
		}
		off++
	}
	for units := uint32(0); off < len(text) && text[off] != '\n' && units < p.Character; {
		r, size := utf8.DecodeRune(text[off:]) // an invalid byte is one replacement character
		units += uint32(utf16.RuneLen(r))
		off += size
	}
	return off
}

// positionOf is the editor position of a byte offset in text.
func positionOf(text []byte, offset int) protocol.Position {
	offset = min(max(offset, 0), len(text))
	var p protocol.Position
	lineStart := 0
	for i := 0; i < offset; i++ {
		if text[i] == '\n' {
			p.Line++
			lineStart = i + 1
		}
	}
	for off := lineStart; off < offset; {
		r, size := utf8.DecodeRune(text[off:])
		p.Character += uint32(utf16.RuneLen(r))
		off += size
	}
	return p
}

// rangeOf is the editor range of an hcl range in the file's text.
func rangeOf(text []byte, r hcl.Range) protocol.Range {
	return protocol.Range{Start: positionOf(text, r.Start.Byte), End: positionOf(text, r.End.Byte)}
}

// contains reports whether the byte offset is within r, its end included
// (the cursor just after a word is on it).
func contains(r hcl.Range, offset int) bool {
	return r.Start.Byte <= offset && offset <= r.End.Byte
}
