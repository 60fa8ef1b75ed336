package lsp

import (
	"context"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"go.lsp.dev/protocol"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
)

// directory is a configuration directory with an open file: what its last
// check found.
type directory struct {
	path  string
	diags diag.Diagnostics
	// cfg is what the newest check that read past the syntax decoded: while
	// a line is half written the file does not parse, and hover and
	// completion go on with what it said before.
	cfg *config.Config
	// texts are the files the check read, by path: the editor's text of
	// an open file, the disk's of the others; ranges are counted in them.
	texts map[string][]byte
	// published are the files last sent diagnostics, so that a file whose
	// mistakes are fixed is sent an empty list.
	published map[string]bool
	// stale: a file of it changed since the check.
	stale bool
}

// directoryOf is the directory of a file, checked if it is stale.
func (s *server) directoryOf(path string) *directory {
	dir := dirOf(path)
	d := s.dirs[dir]
	if d == nil {
		d = &directory{path: dir, published: map[string]bool{}, stale: true}
		s.dirs[dir] = d
	}
	if d.stale {
		s.check(d)
	}
	return d
}

// check reads the directory as validate does, with the editor's text of
// its open files (config.Options.Open), and keeps what it found.
func (s *server) check(d *directory) {
	open := map[string][]byte{}
	for path, doc := range s.docs {
		if dirOf(path) == d.path {
			open[filepath.Base(path)] = doc.text
		}
	}
	cfg, diags := config.Load(d.path, config.Options{Environ: s.environ, Open: open})
	d.diags = diags
	if d.cfg == nil || decoded(cfg) {
		d.cfg = cfg
	}
	d.texts = map[string][]byte{}
	for name, f := range cfg.Files {
		d.texts[name] = f.Bytes
	}
	d.stale = false
}

// text is a file's text as the check read it, or as the disk holds it.
func (d *directory) text(path string) []byte {
	if t, ok := d.texts[path]; ok {
		return t
	}
	b, _ := os.ReadFile(path)
	return b
}

// publish checks the directory and sends each of its files its
// diagnostics: validate's, each at its place. Those that name no file (a
// directory that cannot be read) go to the open files.
func (s *server) publish(ctx context.Context, dir string) {
	d := s.directoryOf(filepath.Join(dir, "x"))
	byFile := map[string][]protocol.Diagnostic{}
	// A command a diagnostic suggests names the directory, as validate's do
	// (`neonform state rm ADDRESS DIR`): pasted into any terminal, it reads
	// this configuration.
	x := suggest.Context{Config: []string{dir}}
	for _, dg := range d.diags {
		if dg.Range != nil {
			path := dg.Range.Filename
			byFile[path] = append(byFile[path], lspDiagnostic(dg, d.text(path), x))
			continue
		}
		for path := range s.docs {
			if dirOf(path) == dir {
				byFile[path] = append(byFile[path], lspDiagnostic(dg, nil, x))
			}
		}
	}
	for path := range d.published {
		if _, ok := byFile[path]; !ok {
			byFile[path] = []protocol.Diagnostic{}
		}
	}
	for path := range s.docs {
		if _, ok := byFile[path]; !ok && dirOf(path) == dir {
			byFile[path] = []protocol.Diagnostic{}
		}
	}
	paths := make([]string, 0, len(byFile))
	for path := range byFile {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	d.published = map[string]bool{}
	for _, path := range paths {
		p := protocol.PublishDiagnosticsParams{URI: uriOf(path), Diagnostics: byFile[path]}
		if doc := s.docs[path]; doc != nil {
			p.Version = uint32(doc.version)
		}
		if len(p.Diagnostics) > 0 {
			d.published[path] = true
		}
		s.notify(ctx, p)
	}
}

func (s *server) notify(ctx context.Context, p protocol.PublishDiagnosticsParams) {
	if err := s.conn.Notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, p); err != nil {
		s.logf("publishing diagnostics: %v", err)
	}
}

// lspDiagnostic is a diagnostic as validate -json gives it (its summary
// and detail clipped as there, its suggested commands written in x), at
// its range in text.
func lspDiagnostic(dg diag.Diagnostic, text []byte, x suggest.Context) protocol.Diagnostic {
	dg.Word() // "Did you mean X?", before the commands' words move its place
	dg.Detail = x.Complete(dg.Detail, dg.Suggestions)
	j := dg.ToJSON()
	out := protocol.Diagnostic{
		Severity: protocol.DiagnosticSeverityError,
		Source:   "neonform",
		Message:  j.Summary,
	}
	if j.Detail != "" {
		out.Message += "\n\n" + j.Detail
	}
	if dg.Severity == diag.SeverityWarning {
		out.Severity = protocol.DiagnosticSeverityWarning
	}
	if dg.Range != nil {
		out.Range = rangeOf(text, *dg.Range)
	}
	return out
}

// rangeIn is an hcl range of the directory as the editor counts it.
func (d *directory) rangeIn(r hcl.Range) protocol.Range { return rangeOf(d.text(r.Filename), r) }

// decoded reports whether a load got past the syntax: it found a neonform
// block, a variable, a local or a project.
func decoded(cfg *config.Config) bool {
	return len(cfg.Projects) > 0 || len(cfg.NamedValues) > 0 || cfg.Settings.DeclRange != (hcl.Range{})
}
