package api

import "strings"

// ShownURL is what of a URL an error or a log may show: without its user
// information, query and fragment, where a password or a token pasted into
// NEON_API_URL would sit. It works on any string, parseable or not, since
// the URLs it is for are often the ones that failed to parse.
func ShownURL(raw string) string {
	s, _, _ := strings.Cut(raw, "#")
	s, _, _ = strings.Cut(s, "?")
	scheme, rest := "", s
	if i := strings.Index(s, "://"); i >= 0 {
		scheme, rest = s[:i+3], s[i+3:]
	}
	authority := rest
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		authority = rest[:j]
	}
	if k := strings.LastIndexByte(authority, '@'); k >= 0 {
		rest = rest[k+1:]
	}
	return scheme + rest
}
