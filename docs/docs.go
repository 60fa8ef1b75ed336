// Package docs holds the pages that neonform itself reads: the
// configuration reference, whose words an editor shows on hover (neonform
// lsp), so that they are written once.
package docs

import _ "embed"

// Configuration is configuration.md.
//
//go:embed configuration.md
var Configuration string
