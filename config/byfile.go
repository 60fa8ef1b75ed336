package config

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/internal/memlimit"
)

// loadByFile loads the files in two rounds, so that hcl's syntax trees of the
// projects are never all in memory at once: at 10,000 projects they were
// about 150 MB, several times the model decoded from them
// (docs/PERFORMANCE.md, "At 10,000 projects"). Projects may use the
// variables and locals of any file, so the other blocks come first:
//
//   - Round one parses, of each file, only what lies between its top-level
//     project blocks (variable, locals, neonform and moved blocks, mistakes),
//     each part from its place in the file, so that every position is the
//     same. The scanner that checks the file's limits (checkShape) finds the
//     project blocks on its way; a file of projects alone is not parsed in
//     this round at all.
//   - After the variables, locals and settings, round two parses each file
//     with project blocks whole, once, decodes its projects, and lets its
//     tree go before the next.
//
// It returns false when a file has a syntax diagnostic, or when the whole
// file's top level is not what round one saw (the scanner disagreed with
// hcl about where a project block is): the caller then starts again with
// load, which reports every file's syntax errors and nothing else, as
// neonform always has. Otherwise it reports what load would: the same
// checks in the same order, projects decoded in file order after every
// variable, local and setting (TestLoadByFileMatchesLoad).
func (l *loader) loadByFile(files map[string][]byte) bool {
	var all []byFile
	byType := map[string][]*hclsyntax.Block{}
	for _, name := range sortedNames(files) {
		f := byFile{name: l.fileName(name), src: files[name]}
		if l.stopBefore(f.name) {
			return true // stopped: finish says so
		}
		tokensLeft := l.budget.tokens
		o, d := l.budget.scanShape(f.src, f.name)
		if d != nil {
			return false
		}
		f.tokens = tokensLeft - l.budget.tokens
		// Room for the file's tree, in this round or the next: the limit
		// is never lowered, and round two holds one file's tree at a time.
		memlimit.Need(hclBytesPerToken * int64(f.tokens))
		f.projects = o.projects
		var err error
		if f.others, err = o.parseOthers(l.evalBudget.ctx, f.src, f.name); err != nil {
			l.cfg.Files[f.name] = &hcl.File{Bytes: f.src}
			return l.stopBefore(f.name) // interrupted: finish says so
		}
		if f.others == nil {
			return false
		}
		f.whole = len(o.projects) == 0 && len(o.items) > 0
		l.cfg.Files[f.name] = &hcl.File{Bytes: f.src}
		c, diags := bodyContent(f.others, rootSchema, "the top level of a file")
		l.diags = append(l.diags, diags...)
		for _, b := range c.Blocks {
			byType[b.Type] = append(byType[b.Type], b)
		}
		all = append(all, f)
	}

	if l.stopBefore("") {
		return true
	}
	l.evaluateVariablesAndLocals(byType)
	l.decodeSettings(byType["neonform"])
	for i := range all {
		f := &all[i]
		if l.stopBefore(f.name) {
			return true
		}
		if f.whole {
			// Parsing it again would hold a second tree beside the first:
			// twice the memory for a file of large locals.
			f.others = nil
			continue
		}
		if !l.roundTwo(f) {
			return false
		}
		if l.evalBudget.interrupted {
			return true // stopped: finish says so
		}
	}
	if !l.opts.SettingsOnly || l.opts.Projects {
		l.decodeMoves(byType["moved"])
		l.decodeRemovals(byType["removed"])
	}
	return true
}

// byFile is one file as loadByFile reads it.
type byFile struct {
	name     string
	src      []byte
	projects []projectBlock
	others   *hclsyntax.Body // the top level but the project blocks
	tokens   int
	// whole: round one parsed the whole file (it has no project
	// blocks), so round two has nothing to add.
	whole bool
}

// roundTwo parses f whole and decodes its projects, then lets its tree go.
// It returns false when loadByFile gives way to load (a syntax
// diagnostic, or a top level that is not what round one saw); an
// interrupt stops the load there (stopBefore).
func (l *loader) roundTwo(f *byFile) bool {
	parsed, diags, err := parseConfig(l.evalBudget.ctx, f.src, f.name, hcl.InitialPos)
	if err != nil {
		return l.stopBefore(f.name)
	}
	if len(diags) > 0 {
		return false
	}
	projects, ok := projectBlocks(parsed.Body.(*hclsyntax.Body), f.others, f.projects)
	if !ok {
		return false
	}
	// Their labels are checked as the rest of the top level was.
	c, diags := bodyContent(&hclsyntax.Body{Blocks: projects}, rootSchema, "the top level of a file")
	l.diags = append(l.diags, diags...)
	if !l.opts.SettingsOnly || l.opts.Projects { // parsed all the same: load reports a syntax error anywhere
		l.decodeProjects(c.Blocks)
	}
	f.others, f.projects = nil, nil
	return true
}

// outline is the top level of a file as the scanner sees it (nesting.go):
// where each item starts, and the project blocks.
type outline struct {
	items    []int
	projects []projectBlock
	// open is true from a top-level project block's "{" to its "}", with
	// what is known of it so far in reading.
	open    bool
	reading projectBlock
}

type projectBlock struct {
	start            int // its type, "project"
	bodyFrom, bodyTo int // from just after its "{" to its "}"
	end, endLine     int // just after its "}", and that line
}

// opens notes a top-level block body opening at braceEnd, for the item
// whose first token is src[item:itemEnd].
func (o *outline) opens(src []byte, item, itemEnd, braceEnd int) {
	if string(src[item:itemEnd]) == "project" {
		o.open, o.reading = true, projectBlock{start: item, bodyFrom: braceEnd}
	}
}

// closes notes the token t that closed a top-level bracket.
func (o *outline) closes(t hclsyntax.TokenType, start, end, line int) {
	if !o.open {
		return
	}
	o.open = false
	if t == hclsyntax.TokenCBrace {
		o.reading.bodyTo, o.reading.end, o.reading.endLine = start, end, line
		o.projects = append(o.projects, o.reading)
	}
}

// parseOthers parses what lies between the project blocks of src, where an
// item starts, each part from its position in the file, and returns their
// top level together; nil if a part has a syntax diagnostic. err is ctx's
// error when an interrupt gave a part's parse up (parseConfig).
func (o *outline) parseOthers(ctx context.Context, src []byte, filename string) (*hclsyntax.Body, error) {
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}}
	from, pos, item := 0, hcl.InitialPos, 0
	for i := 0; i <= len(o.projects); i++ {
		to := len(src)
		if i < len(o.projects) {
			to = o.projects[i].start
		}
		for item < len(o.items) && o.items[item] < from {
			item++
		}
		if item < len(o.items) && o.items[item] < to {
			part, diags, err := parseConfig(ctx, src[from:to], filename, pos)
			if err != nil {
				return nil, err
			}
			if len(diags) > 0 {
				return nil, nil
			}
			b := part.Body.(*hclsyntax.Body)
			for name, a := range b.Attributes {
				if body.Attributes[name] != nil {
					return nil, nil // hcl's error, in round two or in load
				}
				body.Attributes[name] = a
			}
			body.Blocks = append(body.Blocks, b.Blocks...)
		}
		if i < len(o.projects) {
			p := o.projects[i]
			from, pos = p.end, posAt(src, p.end, p.endLine)
		}
	}
	return body, nil
}

// projectBlocks returns the project blocks of the whole file's top level,
// after checking that the rest of it is others, as round one parsed it, and
// that the project blocks are where the scanner found them: then round one
// parsed the same bytes as hcl, from the same state.
func projectBlocks(whole, others *hclsyntax.Body, projects []projectBlock) ([]*hclsyntax.Block, bool) {
	if len(whole.Attributes) != len(others.Attributes) {
		return nil, false
	}
	for name, a := range others.Attributes {
		if b := whole.Attributes[name]; b == nil || b.SrcRange != a.SrcRange {
			return nil, false
		}
	}
	found := make([]*hclsyntax.Block, 0, len(projects))
	other := 0
	for _, b := range whole.Blocks {
		if n := len(found); n < len(projects) && b.TypeRange.Start.Byte == projects[n].start {
			p := projects[n]
			if b.Type != "project" || b.OpenBraceRange.End.Byte != p.bodyFrom || b.CloseBraceRange.Start.Byte != p.bodyTo {
				return nil, false
			}
			found = append(found, b)
			continue
		}
		if b.Type == "project" || other == len(others.Blocks) {
			return nil, false // a project block the scanner did not see
		}
		a := others.Blocks[other]
		other++
		if a.Type != b.Type || a.TypeRange != b.TypeRange || a.OpenBraceRange != b.OpenBraceRange || a.CloseBraceRange != b.CloseBraceRange {
			return nil, false
		}
	}
	return found, len(found) == len(projects) && other == len(others.Blocks)
}
