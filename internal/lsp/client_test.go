package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// client is the editor's end of a server started on pipes: it sends
// requests and notifications as an editor does and keeps what the server
// publishes.
type client struct {
	t    testing.TB
	conn jsonrpc2.Conn
	// served is Serve's result, once it returns.
	served chan error

	mu          sync.Mutex
	diagnostics map[string]protocol.PublishDiagnosticsParams // by file path
	published   chan protocol.PublishDiagnosticsParams
}

// pipe joins a reader and a writer into the stream each end uses.
type pipe struct {
	io.Reader
	io.WriteCloser
}

// startServer starts a server on pipes with the environment given and
// initializes it.
func startServer(t testing.TB, environ ...string) *client {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	c := &client{t: t, served: make(chan error, 1),
		diagnostics: map[string]protocol.PublishDiagnosticsParams{},
		published:   make(chan protocol.PublishDiagnosticsParams, 1000)}
	go func() {
		c.served <- Serve(context.Background(), pipe{toServer, fromServer}, Options{Environ: environ})
		fromServer.Close()
	}()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{toClient, fromClient}))
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			c.mu.Lock()
			c.diagnostics[pathOf(p.URI)] = p
			c.mu.Unlock()
			c.published <- p
		}
		return reply(ctx, nil, nil)
	})
	t.Cleanup(func() { c.conn.Close() })
	var result protocol.InitializeResult
	c.Call(protocol.MethodInitialize, protocol.InitializeParams{ProcessID: int32(os.Getpid())}, &result)
	if result.ServerInfo == nil || result.ServerInfo.Name != "neonform" {
		t.Fatalf("initialize answered %+v", result)
	}
	c.Notify(protocol.MethodInitialized, protocol.InitializedParams{})
	return c
}

// Call sends a request and decodes its answer into result.
func (c *client) Call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) Notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// Open opens a file with its text on disk and waits for its diagnostics.
func (c *client) Open(path string) []protocol.Diagnostic {
	c.t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.OpenText(path, string(text))
}

// OpenText opens a file with the text given, as an editor's unsaved buffer.
func (c *client) OpenText(path, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.Notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uriOf(path), LanguageID: "hcl", Version: 1, Text: text}})
	return c.WaitFor(path, 1)
}

// Change replaces the file's whole text, as version, and waits for its diagnostics.
func (c *client) Change(path string, version int32, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.Notify(protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uriOf(path)}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}}})
	return c.WaitFor(path, version)
}

// WaitFor waits until the file's diagnostics of that version are published.
func (c *client) WaitFor(path string, version int32) []protocol.Diagnostic {
	c.t.Helper()
	path, _ = filepath.Abs(path)
	timeout := time.After(time.Minute)
	for {
		c.mu.Lock()
		p, ok := c.diagnostics[path]
		c.mu.Unlock()
		if ok && p.Version == uint32(version) {
			return p.Diagnostics
		}
		select {
		case <-c.published:
		case <-timeout:
			c.t.Fatalf("no diagnostics of version %d for %s", version, path)
		}
	}
}

// Stop shuts the server down and checks that Serve returns nil.
func (c *client) Stop() {
	c.t.Helper()
	c.Call(protocol.MethodShutdown, nil, nil)
	c.Notify(protocol.MethodExit, nil)
	select {
	case err := <-c.served:
		if err != nil {
			c.t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(time.Minute):
		c.t.Fatal("Serve did not return after exit")
	}
}

// writeFiles writes files (name to text) into a new directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
