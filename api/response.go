package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/neonform/neonform/internal/textsafe"
)

// answerError turns a failed answer into an *Error. The service's errors are
// GeneralError JSON; a proxy in front of it (Cloudflare's 524 page) sends
// HTML, which is summarized rather than pasted into the message.
func answerError(method, path string, r reply) *Error {
	e := &Error{Method: method, Path: path, StatusCode: r.status}
	var ge GeneralError
	if json.Unmarshal(r.body, &ge) == nil && (ge.Message != "" || ge.Code != "") {
		e.Code, e.Message, e.RequestID = ge.Code, oneLine(ge.Message, 500), ge.RequestID
	} else if len(bytes.TrimSpace(r.body)) > 0 {
		e.Message = summarize(r.body, r.header.Get("Content-Type"))
	}
	if r.err != nil {
		if e.Message != "" {
			e.Message += "; "
		}
		e.Message += r.err.Error()
	}
	if e.RequestID == "" && r.header != nil {
		e.RequestID = firstNonEmpty(r.header.Get("X-Neon-Ret-Request-Id"), r.header.Get("X-Request-Id"))
	}
	return e
}

var htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// summarize describes a body that is not the service's JSON in one short line.
func summarize(body []byte, contentType string) string {
	text := bytes.TrimSpace(body)
	if strings.Contains(contentType, "html") || bytes.HasPrefix(text, []byte("<")) {
		if m := htmlTitle.FindSubmatch(text); m != nil {
			if title := oneLine(html.UnescapeString(string(m[1])), 120); title != "" {
				return fmt.Sprintf("%s (an HTML page from a proxy, not the service's answer)", title)
			}
		}
		return fmt.Sprintf("an HTML page of %d bytes from a proxy, not the service's answer", len(body))
	}
	if !utf8.Valid(text) {
		return fmt.Sprintf("a non-text body of %d bytes", len(body))
	}
	first, _, _ := strings.Cut(string(text), "\n")
	return oneLine(first, 200)
}

// oneLine collapses white space, shows controls escaped (internal/textsafe:
// a body quoted in an error is the service's text) and cuts s to at most n
// runes.
func oneLine(s string, n int) string {
	s = textsafe.Terminal(strings.Join(strings.Fields(s), " "))
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
