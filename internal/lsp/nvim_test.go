package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNeovim drives neonform lsp from a real editor: Neovim's built-in LSP
// client, headless (testdata/nvim_init.lua), opens a file with a size the
// service does not offer, waits for the diagnostic, hovers on the size and
// completes an argument's value. Without nvim it fails saying how to get
// it, as the Postgres tests do without a server: .ci/run installs Debian's
// neovim.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("nvim is not installed: apt-get install neovim (.ci/run does) to run this test of neonform lsp with a real editor")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "neonform")
	build := exec.Command("go", "build", "-o", bin, "github.com/neonform/neonform")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	text := strings.Replace(priced, `size = local.replica`, `size = 2.7`, 1)
	path := filepath.Join(dir, "config", "main.hcl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	at := func(marker string, shift int) string {
		p := position(t, text, marker, shift)
		return fmt.Sprintf("%d:%d", p.Line, p.Character)
	}
	init, err := filepath.Abs("testdata/nvim_init.lua")
	if err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(dir, "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", init)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NF_FILE="+path, "NF_OUT="+result, "NF_BIN="+bin,
		"NF_HOVER="+at("max_cu", 2), "NF_COMPLETE="+at(`type = "read_only"`, len(`type = "`)))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, out)
	}
	var got struct {
		Error          string `json:"error"`
		GotDiagnostics bool   `json:"got_diagnostics"`
		Diagnostics    []struct {
			Lnum, Col, EndCol, Severity int
			Message                     string
		} `json:"diagnostics"`
		Hover      string   `json:"hover"`
		Completion []string `json:"completion"`
		Stopped    bool     `json:"stopped"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	if got.Error != "" {
		t.Fatalf("init.lua: %s", got.Error)
	}
	want := position(t, text, "2.7", 0)
	if !got.GotDiagnostics || len(got.Diagnostics) != 1 || got.Diagnostics[0].Lnum != int(want.Line) ||
		got.Diagnostics[0].Col != int(want.Character) || got.Diagnostics[0].Severity != 1 || !strings.Contains(got.Diagnostics[0].Message, "2.7") {
		t.Errorf("diagnostics in Neovim: %+v, want one error at %d:%d", got.Diagnostics, want.Line, want.Character)
	}
	for _, w := range []string{"shop.main.primary", "0.25-2 CU autoscaling", "Scale plan"} {
		if !strings.Contains(got.Hover, w) {
			t.Errorf("hover in Neovim: %q lacks %q", got.Hover, w)
		}
	}
	if !slices.Contains(got.Completion, "read_write") || !slices.Contains(got.Completion, "read_only") {
		t.Errorf("completion in Neovim: %q", got.Completion)
	}
	if !got.Stopped {
		t.Error("the server did not stop when Neovim stopped the client")
	}
}
