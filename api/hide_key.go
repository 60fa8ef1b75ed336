package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// The client knows its own key, so it takes it out of every text the
// service (or a proxy, or a server that is neither) sends back before
// anything reads it: an answer that echoes the Authorization header in its
// message ("bad key: Bearer napi_...") would otherwise reach standard
// error, apply -json's error field and the debug log. It is done once, where
// an answer enters the client (attempt), on the body and the headers, so
// no error, log line or decoded value downstream can hold it.

// KeyHidden is what an answer shows in place of the client's key.
const KeyHidden = "(the API key, hidden)"

// hideKey takes the key out of an answer's body and headers, in place.
func hideKey(key string, body []byte, header http.Header) []byte {
	for _, values := range header {
		for i, v := range values {
			values[i] = strings.ReplaceAll(v, key, KeyHidden)
		}
	}
	if bytes.Contains(body, []byte(key)) {
		body = bytes.ReplaceAll(body, []byte(key), []byte(KeyHidden))
	}
	if bytes.Contains(body, []byte(`\u`)) {
		// The key written with JSON escapes ("napi\u005f...") is the key
		// once decoded: decode and look (rare, as the service escapes
		// nothing in its answers but controls).
		body = hideEscapedKey(key, body)
	}
	return body
}

// hideEscapedKey hides the key in the strings of a JSON body, written back
// only when one held it.
func hideEscapedKey(key string, body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return body
	}
	v, found := hideKeyIn(key, v)
	if !found {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return []byte(`{"message":"an answer that held the API key"}`)
	}
	return out
}

// hideKeyIn replaces the key in every string (keys of objects included)
// of a decoded JSON value.
func hideKeyIn(key string, v any) (any, bool) {
	switch x := v.(type) {
	case string:
		if strings.Contains(x, key) {
			return strings.ReplaceAll(x, key, KeyHidden), true
		}
	case []any:
		found := false
		for i := range x {
			var f bool
			x[i], f = hideKeyIn(key, x[i])
			found = found || f
		}
		return x, found
	case map[string]any:
		found := false
		for k, item := range x {
			item, f := hideKeyIn(key, item)
			found = found || f
			if strings.Contains(k, key) {
				delete(x, k)
				k, f = strings.ReplaceAll(k, key, KeyHidden), true
			}
			x[k] = item
			found = found || f
		}
		return x, found
	}
	return v, false
}
