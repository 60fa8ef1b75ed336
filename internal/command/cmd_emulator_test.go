package command

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// emulatorProcess is `neonform emulator` running as its own process: the test
// binary, which TestMain (through testscript) puts on PATH as neonform.
type emulatorProcess struct {
	cmd    *exec.Cmd
	lines  *bufio.Scanner
	stderr bytes.Buffer
	base   string // the first line: the API's base URL
}

func startEmulatorCommand(t *testing.T, args ...string) *emulatorProcess {
	t.Helper()
	bin, err := exec.LookPath("neonform")
	if err != nil {
		t.Fatalf("neonform is not on PATH (TestMain puts the test binary there): %v", err)
	}
	p := &emulatorProcess{cmd: exec.Command(bin, append([]string{"emulator"}, args...)...)}
	p.cmd.Stderr = &p.stderr
	stdout, err := p.cmd.StdoutPipe()
	failOn(t, err)
	failOn(t, p.cmd.Start())
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	p.lines = bufio.NewScanner(stdout)
	p.base = p.line(t)
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+/api/v2$`).MatchString(p.base) {
		t.Fatalf("first line %q is not the base URL; stderr: %s", p.base, p.stderr.String())
	}
	return p
}

func (p *emulatorProcess) line(t *testing.T) string {
	t.Helper()
	if !p.lines.Scan() {
		t.Fatalf("the emulator printed no more lines (%v); stderr: %s", p.lines.Err(), p.stderr.String())
	}
	return p.lines.Text()
}

// stop sends SIGINT, as Ctrl-C does, and waits for a clean exit.
func (p *emulatorProcess) stop(t *testing.T) {
	t.Helper()
	failOn(t, p.cmd.Process.Signal(syscall.SIGINT))
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the emulator did not exit cleanly on SIGINT: %v; stderr: %s", err, p.stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the emulator did not stop within 20s of SIGINT")
	}
}

func httpCall(t *testing.T, method, url, key, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	failOn(t, err)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	failOn(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestEmulatorCommandServesSavesAndStops(t *testing.T) {
	data := filepath.Join(t.TempDir(), "world.json")
	p := startEmulatorCommand(t, "-addr", "127.0.0.1:0", "-data", data, "-op-delay", "0s")
	keyLine := p.line(t)
	key, ok := strings.CutPrefix(keyLine, "NEON_API_KEY=")
	if !ok || !regexp.MustCompile(`^napi_[a-z0-9]{64}$`).MatchString(key) {
		t.Fatalf("second line %q is not the generated key", keyLine)
	}

	if status, body := httpCall(t, "GET", p.base+"/projects", "", ""); status != 401 || !strings.Contains(body, "Authorization") {
		t.Errorf("without a key: %d %s", status, body)
	}
	status, body := httpCall(t, "POST", p.base+"/projects", key, `{"project":{"name":"shop"}}`)
	if status != 201 {
		t.Fatalf("create project: %d %s", status, body)
	}
	var created struct {
		Project struct{ ID string }
	}
	failOn(t, json.Unmarshal([]byte(body), &created))
	status, body = httpCall(t, "GET", strings.TrimSuffix(p.base, "/api/v2")+"/_emulator/stats", "", "")
	if status != 200 || !strings.Contains(body, `"POST /projects":1`) {
		t.Errorf("stats: %d %s", status, body)
	}
	p.stop(t)

	saved, err := os.ReadFile(data)
	failOn(t, err)
	if !strings.Contains(string(saved), created.Project.ID) {
		t.Errorf("the data file does not hold project %s", created.Project.ID)
	}
	logged := p.stderr.String()
	if !strings.Contains(logged, "POST /api/v2/projects 201") || !strings.Contains(logged, "saved in "+data) {
		t.Errorf("stderr should log the requests and say where the world is saved:\n%s", logged)
	}
	if strings.Contains(logged+string(saved), key) {
		t.Error("the key reached the log or the data file")
	}

	// Started again on the same file with that key: the project is there, and
	// the key, given rather than generated, is not printed.
	p = startEmulatorCommand(t, "-addr", "127.0.0.1:0", "-data", data, "-api-key", key, "-quiet")
	if next := p.line(t); next != "" {
		t.Errorf("second line %q, want the blank line before the how-to (no key when it was given)", next)
	}
	if status, body := httpCall(t, "GET", p.base+"/projects/"+created.Project.ID, key, ""); status != 200 {
		t.Errorf("after a restart: %d %s", status, body)
	}
	p.stop(t)
	if strings.Contains(p.stderr.String(), "GET /api/v2") {
		t.Errorf("-quiet still logged requests: %s", p.stderr.String())
	}
}

func failOn(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// An emulator that cannot take its address leaves the data file as it found it: it
// listens before it loads, fills in and writes the world: a failed start changes nothing.
func TestEmulatorThatCannotListenLeavesTheWorldFile(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	failOn(t, err)
	defer taken.Close()
	dir := t.TempDir()
	data := filepath.Join(dir, "world.json")
	seed := []byte(`{"format_version": 1, "users": [{"id": "u1"}]}`)
	failOn(t, os.WriteFile(data, seed, 0o600))

	var stderr bytes.Buffer
	err = runEmulator(context.Background(), emulatorOptions{Addr: taken.Addr().String(), DataFile: data, OpDelay: time.Second,
		Burst: 40, Stdout: io.Discard, Stderr: &stderr})
	if err == nil || !strings.Contains(err.Error(), "cannot listen on "+taken.Addr().String()) {
		t.Fatalf("runEmulator on a taken port: %v", err)
	}
	got, err := os.ReadFile(data)
	failOn(t, err)
	if !bytes.Equal(got, seed) {
		t.Errorf("the world file was rewritten:\n%s", got)
	}
	entries, err := os.ReadDir(dir)
	failOn(t, err)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want the world file alone", len(entries))
	}
}

// -addr is a loopback address unless -allow-remote says another is meant (docs/emulator.md:
// the API key would cross the network in clear text). Names other than
// localhost are not looked up.
func TestEmulatorAddressMustBeLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:5454", false, true},
		{"127.0.0.2:0", false, true},
		{"[::1]:0", false, true},
		{"localhost:0", false, true},
		{"LocalHost:0", false, true},
		{"0.0.0.0:0", false, false},
		{":0", false, false},
		{"[::]:0", false, false},
		{"192.0.2.10:5454", false, false},
		{"example.invalid:5454", false, false},
		{"0.0.0.0:0", true, true},
		{":0", true, true},
	} {
		_, err := emulatorOptions{Addr: tc.addr, AllowRemote: tc.remote, Burst: 40}.emulatorOptions()
		if (err == nil) != tc.ok {
			t.Errorf("-addr %s (allow remote %v): error %v, want ok %v", tc.addr, tc.remote, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "-allow-remote") {
			t.Errorf("-addr %s: %v should say how to mean it", tc.addr, err)
		}
	}
}
