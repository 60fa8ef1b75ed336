// Package lsp is neonform's language server (neonform lsp): the Language
// Server Protocol over a stream, for editors. It reads a configuration with
// the same reader and checks as validate (config.Load, with the editor's
// unsaved files in config.Options.Open), describes sizes with sizing's
// table and cost model, formats with config.Format, and takes what it says
// of attributes from the attribute table (internal/managed) and diff: it keeps
// no parser or list of attributes of its own (docs/editors.md).
//
// It never calls the service and never reads the API key: everything it
// says comes from the files.
package lsp
