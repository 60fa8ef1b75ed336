package api

import "github.com/neonform/neonform/internal/apiurl"

// ShownURL is what of a URL an error or a log may show: without its user
// information, query and fragment, where a password or a token pasted into
// NEON_API_URL would sit (apiurl.Shown).
func ShownURL(raw string) string { return apiurl.Shown(raw) }
