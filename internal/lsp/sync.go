package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// The editor's files: each open, change and save checks the file's
// directory again and publishes what it finds.

func (s *server) didOpen(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.DidOpenTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path := pathOf(p.TextDocument.URI)
	s.docs[path] = &document{path: path, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	s.changed(ctx, path)
	return nil, nil
}

func (s *server) didChange(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.DidChangeTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path := pathOf(p.TextDocument.URI)
	doc := s.docs[path]
	if doc == nil {
		return nil, nil // a change to a file not open: the protocol says it cannot happen
	}
	for _, c := range p.ContentChanges {
		if c.Range == (protocol.Range{}) && c.RangeLength == 0 {
			doc.text = []byte(c.Text) // the whole text (the server asks for whole texts)
			continue
		}
		start, end := offsetOf(doc.text, c.Range.Start), offsetOf(doc.text, c.Range.End)
		doc.text = append(doc.text[:start:start], append([]byte(c.Text), doc.text[end:]...)...)
	}
	doc.version = p.TextDocument.Version
	s.changed(ctx, path)
	return nil, nil
}

func (s *server) didSave(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.DidSaveTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.changed(ctx, pathOf(p.TextDocument.URI))
	return nil, nil
}

// didClose forgets the editor's text: the disk's is read from then on.
func (s *server) didClose(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path := pathOf(p.TextDocument.URI)
	delete(s.docs, path)
	dir := dirOf(path)
	for open := range s.docs {
		if dirOf(open) == dir {
			s.changed(ctx, path)
			return nil, nil
		}
	}
	// The directory's last open file: its diagnostics are taken back and
	// the server forgets it, so that memory follows what is open.
	if d := s.dirs[dir]; d != nil {
		for published := range d.published {
			s.notify(ctx, protocol.PublishDiagnosticsParams{URI: uriOf(published), Diagnostics: []protocol.Diagnostic{}})
		}
		delete(s.dirs, dir)
	}
	return nil, nil
}

// didChangeWatchedFiles: a file changed on disk (another program, a git
// checkout); its directory is read again if one of its files is open.
func (s *server) didChangeWatchedFiles(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.DidChangeWatchedFilesParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	for _, e := range p.Changes {
		path := pathOf(e.URI)
		if s.dirs[dirOf(path)] != nil {
			s.changed(ctx, path)
		}
	}
	return nil, nil
}

// changed checks the file's directory again and publishes its diagnostics.
func (s *server) changed(ctx context.Context, path string) {
	dir := dirOf(path)
	if d := s.dirs[dir]; d != nil {
		d.stale = true
	}
	s.publish(ctx, dir)
}
