package command

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// neonform emulator -postgres answers SQL over HTTP on the host and port of its
// connection URIs, as the serverless driver sends it (docs/emulator.md, SQL over
// HTTP), with the compute's pg_settings in force.
func TestEmulatorCommandAnswersSQLOverHTTP(t *testing.T) {
	_, uri := startPostgresEmulatorWithShop(t)
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
