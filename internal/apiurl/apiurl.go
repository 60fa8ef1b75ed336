// Package apiurl is the one rule for the service's base URL, which the
// configuration's checks (api_url, NEON_API_URL: with file, line and
// source) and the API client (for any caller) both apply: https://
// anywhere, http:// only to this machine, and never a user, password,
// query or fragment, where a pasted secret would sit. The API key travels
// with every request, in its own header: it must not cross a network in
// clear, nor ride in the URL.
package apiurl

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Default is the service's API.
const Default = "https://console.neon.tech/api/v2"

// Problem is why a URL is refused: a short summary and what to do.
type Problem struct {
	Summary, Detail string
}

// Check returns why raw is refused as the API's base URL, or nil. name is
// where it came from ("api_url", "NEON_API_URL"), as the detail says it.
// The detail never repeats the URL's user information, query or fragment.
func Check(name, raw string) *Problem {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return &Problem{"Invalid API URL", fmt.Sprintf("%s must be an https:// URL such as %q.", name, Default)}
	}
	if u.User != nil {
		return &Problem{"Credentials in the API URL", fmt.Sprintf(
			"%s carries a user or password (not shown here): the API key goes in the environment variable NEON_API_KEY, never in the URL, which plans and logs name. Remove it from %s and rotate it if it was committed.", name, name)}
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return &Problem{"Credentials in the API URL", fmt.Sprintf(
			"%s has a query or fragment (not shown here: it may hold a secret), which the service's API never takes: the API key goes in the environment variable NEON_API_KEY. Remove it from %s.", name, name)}
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if Loopback(u.Hostname()) {
			return nil
		}
		return &Problem{"Insecure API URL", fmt.Sprintf("%s uses plain http:// to %s, which is not this machine, so the API key would travel unencrypted. Use https://.", name, u.Hostname())}
	}
	return &Problem{"Invalid API URL", fmt.Sprintf("%s must use https:// (or http:// to this machine), not %s://; for example %q.", name, u.Scheme, Default)}
}

// Loopback reports whether host names this machine: localhost or a
// loopback address. No other name is looked up.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Shown is what of a URL an error or a log may show: without its user
// information, query and fragment. It works on any string, parseable or
// not, since the URLs it is for are often the ones that failed to parse.
func Shown(raw string) string {
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
