package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
)

func TestShownURLDropsUserInfoQueryAndFragment(t *testing.T) {
	for raw, want := range map[string]string{
		"https://console.neon.tech/api/v2":                          "https://console.neon.tech/api/v2",
		"https://user:s3cret@console.neon.tech/api/v2":              "https://console.neon.tech/api/v2",
		"https://console.neon.tech/api/v2?token=s3cret":             "https://console.neon.tech/api/v2",
		"https://console.neon.tech/api/v2#s3cret":                   "https://console.neon.tech/api/v2",
		"http://u:p@ss@127.0.0.1:8080/api/v2?k=s3cret&x=1#f":        "http://127.0.0.1:8080/api/v2",
		"ftp://user:s3cret@example.com/?token=s3cret":               "ftp://example.com/",
		"http://127.0.0.1:1/ap%zz?k=s3cret":                         "http://127.0.0.1:1/ap%zz", // not a URL to url.Parse
		"user:s3cret@example.com/api/v2":                            "example.com/api/v2",
		"https://console.neon.tech/api/v2/users/me@example.com?x=1": "https://console.neon.tech/api/v2/users/me@example.com",
		"embedded": "embedded",
	} {
		if got := api.ShownURL(raw); got != want {
			t.Errorf("ShownURL(%q) = %q, want %q", raw, got, want)
		}
	}
}

// The client's own errors about its URL, and what it prints of itself,
// never repeat a secret pasted into the URL.
func TestClientErrorsDoNotRepeatASecretInTheURL(t *testing.T) {
	for _, raw := range []string{
		"https://console.neon.tech/api/v2?token=s3cret",
		"https://console.neon.tech/api/v2#s3cret",
		"ftp://user:s3cret@example.com/api/v2",
		"http://user:s3cret@127.0.0.1:1/api/v2",
	} {
		_, err := api.New(api.Options{BaseURL: raw, APIKey: testKey})
		if err == nil {
			t.Fatalf("%s: accepted", raw)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: the error repeats the secret: %v", raw, err)
		}
	}
	opts := api.Options{BaseURL: "https://console.neon.tech/api/v2?token=s3cret", APIKey: testKey}
	if s := fmt.Sprintf("%v %+v %s", opts, opts, opts.String()); strings.Contains(s, "s3cret") {
		t.Errorf("the options print the secret: %s", s)
	}
	// No answer: the error names the URL the request went to, as it may be shown.
	c, err := api.New(api.Options{BaseURL: "http://127.0.0.1:1/api/v2", APIKey: testKey, MaxRetries: -1})
	must(t, err)
	_, err = c.ListProjects(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no answer from the service at http://127.0.0.1:1/api/v2") {
		t.Errorf("want the URL named: %v", err)
	}
}
