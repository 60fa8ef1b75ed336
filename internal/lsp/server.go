package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Options are what a server is given besides its stream.
type Options struct {
	// Environ is the process environment ("KEY=value"): variables'
	// NEONFORM_VAR_<name> values and env(), as validate reads them. The API
	// key (NEON_API_KEY) is dropped: the server never needs it.
	Environ []string
	// Log, when set, receives a line for each problem of the protocol itself
	// (a message it cannot read); nil writes none.
	Log io.Writer
}

// Serve answers the client on rwc (standard input and output, for an
// editor) until the client sends exit or closes the stream. It returns nil
// after a shutdown then exit, and an error when the stream ends without
// them or fails.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	s := newServer(opts)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	s.conn = conn
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.exit = cancel
	conn.Go(ctx, s.handle)
	select {
	case <-conn.Done():
	case <-ctx.Done():
		conn.Close()
		<-conn.Done()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.exited && s.shutdown:
		return nil
	case s.exited:
		return errors.New("the client sent exit without shutdown")
	}
	if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("reading from the client: %w", err)
	}
	return errors.New("the client closed the connection without shutdown and exit")
}

// server is one client's session: its open files and the directories they
// belong to, each read as validate reads it.
type server struct {
	conn    jsonrpc2.Conn
	environ []string
	log     io.Writer
	exit    func()

	mu       sync.Mutex
	docs     map[string]*document // by file path
	dirs     map[string]*directory
	shutdown bool
	exited   bool
}

func newServer(opts Options) *server {
	var environ []string
	for _, kv := range opts.Environ {
		if !strings.HasPrefix(kv, apiKeyVariable+"=") {
			environ = append(environ, kv)
		}
	}
	return &server{environ: environ, log: opts.Log, docs: map[string]*document{}, dirs: map[string]*directory{}}
}

// apiKeyVariable is the environment variable of the API key, which the
// server drops from what it reads (docs/security.md).
const apiKeyVariable = "NEON_API_KEY"

// handle answers one message. The protocol's methods are answered one at a
// time, in the order they come: an edit is checked before the next
// request about the file is answered.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	method := req.Method()
	switch {
	case method == protocol.MethodExit:
		s.exited = true
		err := reply(ctx, nil, nil)
		s.exit()
		return err
	case s.shutdown && method != protocol.MethodShutdown:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: send exit"))
	}
	h, ok := handlers[method]
	if !ok {
		if strings.HasPrefix(method, "$/") { // optional notifications
			return reply(ctx, nil, nil)
		}
		return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
	}
	result, err := h(s, ctx, req.Params())
	if err != nil {
		s.logf("%s: %v", method, err)
	}
	return reply(ctx, result, err)
}

// handlers answer each method the server knows, given its parameters.
var handlers = map[string]func(s *server, ctx context.Context, params json.RawMessage) (any, error){
	protocol.MethodInitialize:  (*server).initialize,
	protocol.MethodInitialized: noAnswer,
	protocol.MethodShutdown: func(s *server, _ context.Context, _ json.RawMessage) (any, error) {
		s.shutdown = true
		return nil, nil
	},
	protocol.MethodTextDocumentDidOpen:             (*server).didOpen,
	protocol.MethodTextDocumentDidChange:           (*server).didChange,
	protocol.MethodTextDocumentDidSave:             (*server).didSave,
	protocol.MethodTextDocumentDidClose:            (*server).didClose,
	protocol.MethodWorkspaceDidChangeWatchedFiles:  (*server).didChangeWatchedFiles,
	protocol.MethodTextDocumentHover:               (*server).hover,
	protocol.MethodTextDocumentCompletion:          (*server).completion,
	protocol.MethodTextDocumentDefinition:          (*server).definition,
	protocol.MethodTextDocumentReferences:          (*server).references,
	protocol.MethodTextDocumentCodeAction:          (*server).codeAction,
	protocol.MethodTextDocumentFormatting:          (*server).formatting,
	protocol.MethodTextDocumentDocumentSymbol:      (*server).documentSymbol,
	protocol.MethodWorkspaceDidChangeConfiguration: noAnswer,
}

func noAnswer(*server, context.Context, json.RawMessage) (any, error) { return nil, nil }

// decode reads a method's parameters, or says they are not what it takes.
func decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return nil
}

func (s *server) initialize(_ context.Context, params json.RawMessage) (any, error) {
	var p protocol.InitializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindFull,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider:              true,
			CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{".", "\"", "="}},
			DefinitionProvider:         true,
			ReferencesProvider:         true,
			CodeActionProvider:         true,
			DocumentFormattingProvider: true,
			DocumentSymbolProvider:     true,
		},
		ServerInfo: &protocol.ServerInfo{Name: "neonform"},
	}, nil
}

func (s *server) logf(format string, args ...any) {
	if s.log != nil {
		fmt.Fprintf(s.log, "neonform lsp: "+format+"\n", args...)
	}
}

// dirOf is the configuration directory of a file: the one it is in.
func dirOf(path string) string { return filepath.Dir(path) }
