package lsp

import (
	"regexp"
	"strings"
	"sync"

	"github.com/neonform/neonform/docs"
)

// The words hover shows of a block or an argument are the configuration
// reference's (docs/configuration.md, Reference): each block is a line
// "`TYPE "LABEL"` — what it is", then a table with a row per argument,
// "| `name` | type | default | meaning |". They are read from the page
// itself, so that they are written once; TestEveryNameIsDocumented fails
// when a block or argument has none.

// blockDoc is a block type's words and its arguments', as the page has them.
type blockDoc struct {
	about string
	// args holds each argument's row: its type, default and meaning, by name.
	args map[string]argDoc
}

type argDoc struct{ kind, deflt, meaning string }

var (
	blockLine = regexp.MustCompile("^`([a-z_]+)(?: \"[A-Z]+\")?` — (.*)$")
	argName   = regexp.MustCompile("`([a-z_]+)(?: \\{ ([a-z_]+) \\})?`")
	reference = sync.OnceValue(func() map[string]*blockDoc { return readReference(docs.Configuration) })
)

// readReference reads the blocks and their arguments from the page.
func readReference(page string) map[string]*blockDoc {
	out := map[string]*blockDoc{}
	var cur *blockDoc
	inAbout := false
	for line := range strings.Lines(page) {
		line = strings.TrimRight(line, "\n")
		if m := blockLine.FindStringSubmatch(line); m != nil {
			cur = &blockDoc{about: m[2], args: map[string]argDoc{}}
			if prev := out[m[1]]; prev != nil {
				cur = prev // a second paragraph of the same block adds its rows
			} else {
				out[m[1]] = cur
			}
			inAbout = true
			continue
		}
		switch {
		case cur == nil:
		case inAbout && line != "":
			cur.about += " " + line
		case strings.HasPrefix(line, "| `"):
			inAbout = false
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			if len(cells) < 3 {
				continue
			}
			d := argDoc{kind: strings.TrimSpace(cells[1]), meaning: strings.TrimSpace(cells[len(cells)-1])}
			if len(cells) >= 4 {
				d.deflt = strings.TrimSpace(cells[2])
			}
			for _, m := range argName.FindAllStringSubmatch(cells[0], -1) {
				if m[2] != "" { // "budget { monthly_usd_max }": a nested block and its argument
					nested := out[m[1]]
					if nested == nil {
						nested = &blockDoc{args: map[string]argDoc{}}
						out[m[1]] = nested
					}
					nested.args[m[2]] = d
					if nested.about == "" {
						nested.about = d.meaning
					}
					continue
				}
				cur.args[m[1]] = d
			}
		default:
			inAbout = false
		}
	}
	return out
}

// aboutBlock is what the page says of a block type, "" when nothing.
func aboutBlock(typ string) string {
	if d := reference()[typ]; d != nil {
		return d.about
	}
	return ""
}

// aboutArgument is the page's row of an argument of the innermost block of
// path: a defaults block's arguments are a compute block's, and a removed
// block's lifecycle has its own.
func aboutArgument(path []string, name string) (argDoc, bool) {
	if len(path) == 0 {
		return argDoc{}, false
	}
	typ := path[len(path)-1]
	if typ == "defaults" {
		typ = "compute"
	}
	if typ == "lifecycle" && len(path) > 1 && path[len(path)-2] == "removed" {
		// the removed block's row: "lifecycle { destroy }"
		if d := reference()["removed"]; d != nil {
			if a, ok := d.args["destroy"]; ok && name == "destroy" {
				return a, true
			}
		}
	}
	d := reference()[typ]
	if d == nil {
		return argDoc{}, false
	}
	a, ok := d.args[name]
	return a, ok
}
