package apiurl

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		raw, summary string
	}{
		{"https://console.neon.tech/api/v2", ""},
		{"http://127.0.0.1:5454/api/v2", ""},
		{"http://localhost:1/api/v2", ""},
		{"http://[::1]:1/api/v2", ""},
		{"http://neon.example.com/api/v2", "Insecure API URL"},
		{"ftp://neon.example.com/api/v2", "Invalid API URL"},
		{"console.neon.tech/api/v2", "Invalid API URL"},
		{"https://ada:s3cret@console.neon.tech/api/v2", "Credentials in the API URL"},
		{"https://napi_abc@console.neon.tech/api/v2", "Credentials in the API URL"},
		{"https://console.neon.tech/api/v2?token=s3cret", "Credentials in the API URL"},
		{"https://console.neon.tech/api/v2#s3cret", "Credentials in the API URL"},
		{"http://ada:s3cret@neon.example.com/api/v2", "Credentials in the API URL"},
	} {
		p := Check("api_url", tc.raw)
		got := ""
		if p != nil {
			got = p.Summary
			if strings.Contains(p.Detail, "s3cret") || strings.Contains(p.Detail, "napi_abc") {
				t.Errorf("Check(%q) repeats the secret: %s", tc.raw, p.Detail)
			}
			if !strings.Contains(p.Detail, "api_url") {
				t.Errorf("Check(%q) does not name where the URL came from: %s", tc.raw, p.Detail)
			}
		}
		if got != tc.summary {
			t.Errorf("Check(%q) = %q, want %q", tc.raw, got, tc.summary)
		}
	}
}

func TestShown(t *testing.T) {
	for raw, want := range map[string]string{
		"https://ada:s3cret@console.neon.tech/api/v2?token=x#y": "https://console.neon.tech/api/v2",
		"http://127.0.0.1:1/ap%zz?token=s3cret":                 "http://127.0.0.1:1/ap%zz",
		"not a url@host/x":                                      "host/x",
	} {
		if got := Shown(raw); got != want {
			t.Errorf("Shown(%q) = %q, want %q", raw, got, want)
		}
	}
}
