package command

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/neonform/neonform/internal/pgtest"
)

// neonform emulator -postgres answers SQL over HTTP on the host and port of its
// connection URIs, as the serverless driver sends it (docs/emulator.md, SQL over
// HTTP), with the compute's pg_settings in force.
func TestEmulatorCommandAnswersSQLOverHTTP(t *testing.T) {
	pgtest.Computes(t) // fails under CI without PostgreSQL's server programs, skips elsewhere
	p := startEmulatorCommand(t, "-addr", "127.0.0.1:0", "-postgres", "-postgres-addr", "127.0.0.1:0", "-op-delay", "0s", "-api-key", "napi_dev", "-quiet")
	status, body := httpCall(t, "POST", p.base+"/projects", "napi_dev",
		`{"project":{"name":"shop","default_endpoint_settings":{"pg_settings":{"work_mem":"48MB"}}}}`)
	if status != 201 {
		t.Fatalf("create project: %d %s", status, body)
	}
	var created struct {
		ConnectionURIs []struct {
			URI string `json:"connection_uri"`
		} `json:"connection_uris"`
	}
	failOn(t, json.Unmarshal([]byte(body), &created))
	uri := created.ConnectionURIs[0].URI
	u, err := url.Parse(uri)
	failOn(t, err)
	req, err := http.NewRequest("POST", "http://"+u.Host+"/sql", strings.NewReader(`{"query": "SHOW work_mem", "params": []}`))
	failOn(t, err)
	req.Header.Set("Neon-Connection-String", uri)
	req.Header.Set("Neon-Array-Mode", "true")
	req.Header.Set("Neon-Raw-Text-Output", "true")
	resp, err := http.DefaultClient.Do(req)
	failOn(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(raw), `"rows":[["48MB"]]`) {
		t.Errorf("SHOW work_mem over HTTP: %d %s, want the row 48MB", resp.StatusCode, raw)
	}
}
