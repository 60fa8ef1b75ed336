package ci

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/internal/command"
)

// TestMain puts neonform on the PATH of the scripts the tests run: this
// test binary, acting as the neonform command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"neonform": func() { os.Exit(command.Run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

const previewProject = "dark-sun-46453911"

// previewConfig is a branch rule as examples/previews has it, for the
// project the emulator makes.
const previewConfig = `project "shop" {
  id = "` + previewProject + `"

  branches "previews" {
    match = "preview/*"

    compute "primary" {
      min_cu          = 0.25
      max_cu          = 1
      suspend_timeout = "5m"
    }
  }
}
`

// stepRunner runs the steps of one job of neonform-previews.yml, as GitHub
// runs a step (bash -eo pipefail, in the job's working directory), against
// the emulator, with the workflow's own env but the emulator's address.
type stepRunner struct {
	t   *testing.T
	job *job
	dir string
	env []string
}

func (r stepRunner) run(name string) (string, error) {
	r.t.Helper()
	i := stepIndex(r.job, func(s step) bool { return s.Name == name })
	if i < 0 {
		r.t.Fatalf("neonform-previews.yml: no step %q", name)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", r.job.Steps[i].Run)
	cmd.Dir = r.dir
	cmd.Env = r.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// The preview workflow's calls of the API: creating the pull request's
// branch once, with no compute, so that the apply of its rule instance, the
// next step, creates the compute at the rule's size, whose host the next
// step hands on; deleting it on close, once, and forgetting its state entry.
func TestPreviewStepsAgainstTheEmulator(t *testing.T) {
	w := readWorkflows(t)["neonform-previews.yml"]
	emu, err := emulator.New(emulator.Options{APIKey: "napi_previewtestkey0123456789", RatePerMinute: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emu.EnsureProject(previewProject, "shop"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu.Handler())
	t.Cleanup(func() { srv.Close(); emu.Close() })
	api := srv.URL + "/api/v2"

	dir := t.TempDir()
	config := filepath.Join(dir, "infra")
	if err := os.Mkdir(config, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"main.hcl": previewConfig, "prod.vars": ""} {
		if err := os.WriteFile(filepath.Join(config, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	branch := strings.ReplaceAll(w.Env["BRANCH"], "${{ github.event.pull_request.number }}", "7")
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + dir,
		"NO_COLOR=1",
		"NEONFORM_RATE_LIMIT=off",
		"NEON_API=" + api,
		"NEON_API_URL=" + api,
		"NEON_API_KEY=" + emu.APIKey(),
		"NEON_PROJECT_ID=" + previewProject,
		"BRANCH=" + branch,
		"PREVIEW_RULE=" + w.Env["PREVIEW_RULE"],
		"PREVIEW_COMPUTE=" + w.Env["PREVIEW_COMPUTE"],
		"GITHUB_OUTPUT=" + filepath.Join(dir, "github_output"),
		"GITHUB_STEP_SUMMARY=" + filepath.Join(dir, "github_step_summary"),
	}
	var open, closed *job
	for _, j := range w.Jobs {
		switch {
		case strings.Contains(j.If, "github.event.action != 'closed'"):
			open = j
		case strings.Contains(j.If, "github.event.action == 'closed'"):
			closed = j
		}
	}
	opened := stepRunner{t, open, config, env}
	closing := stepRunner{t, closed, config, env}

	// Another pull request's branch, not applied yet: the apply below is of
	// pull request 7's instance alone.
	other := strings.Replace(branch, "7", "3", 1)
	req, err := http.NewRequest(http.MethodPost, api+"/projects/"+previewProject+"/branches",
		strings.NewReader(`{"branch":{"name":"`+other+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+emu.APIKey())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating %s: %v %v", other, err, resp)
	}
	resp.Body.Close()

	out, err := opened.run("Create the Neon branch if it is missing")
	if err != nil || !strings.Contains(out, "created Neon branch "+branch) {
		t.Fatalf("creating the branch: %v\n%s", err, out)
	}
	if strings.Contains(out, emu.APIKey()) {
		t.Errorf("the step printed the API key:\n%s", out)
	}
	b := previewBranches(t, api, emu.APIKey(), branch)
	if len(b) != 1 || len(b[0].endpoints) != 0 {
		t.Fatalf("after the step, branches named %s: %+v; want one, with no compute", branch, b)
	}
	out, err = opened.run("Create the Neon branch if it is missing")
	if err != nil || !strings.Contains(out, "Neon branch "+branch+" exists") || len(previewBranches(t, api, emu.APIKey(), branch)) != 1 {
		t.Fatalf("the second run (a push) did not find the branch it made: %v\n%s", err, out)
	}

	out, err = opened.run("Apply the preview's computes")
	if err != nil {
		t.Fatalf("applying the preview: %v\n%s", err, out)
	}
	b = previewBranches(t, api, emu.APIKey(), branch)
	if len(b) != 1 || len(b[0].endpoints) != 1 || b[0].endpoints[0].Min != 0.25 || b[0].endpoints[0].Max != 1 {
		t.Fatalf("after the apply, %s has %+v; want one compute of 0.25-1 CU\n%s", branch, b, out)
	}
	if o := previewBranches(t, api, emu.APIKey(), other); len(o) != 1 || len(o[0].endpoints) != 0 {
		t.Fatalf("after the apply of %s, %s has %+v; want it untouched, with no compute\n%s", branch, other, o, out)
	}

	// The host the apply created, handed to the next job through GITHUB_OUTPUT.
	out, err = opened.run("Print the preview's host")
	if err != nil {
		t.Fatalf("printing the host: %v\n%s", err, out)
	}
	outputs, err := os.ReadFile(filepath.Join(dir, "github_output"))
	if err != nil || b[0].endpoints[0].Host == "" || string(outputs) != "host="+b[0].endpoints[0].Host+"\n" {
		t.Fatalf("GITHUB_OUTPUT holds %q (%v); want host=%s", outputs, err, b[0].endpoints[0].Host)
	}

	out, err = closing.run("Delete the Neon branch")
	if err != nil || !strings.Contains(out, "deleted Neon branch "+branch+" ("+b[0].ID+")") {
		t.Fatalf("deleting the branch: %v\n%s", err, out)
	}
	if b := previewBranches(t, api, emu.APIKey(), branch); len(b) != 0 {
		t.Fatalf("after the close, branches named %s: %+v", branch, b)
	}
	out, err = closing.run("Delete the Neon branch")
	if err != nil || !strings.Contains(out, "Neon branch "+branch+" is already gone") {
		t.Fatalf("a second close: %v\n%s", err, out)
	}

	// The branch took its compute with it: the apply forgets the state's
	// entry, and a second close finds nothing to forget.
	out, err = closing.run("Apply the forget")
	if err != nil {
		t.Fatalf("applying the forget: %v\n%s", err, out)
	}
	recorded, err := exec.Command("bash", "-c", "cd "+config+" && neonform output -json").CombinedOutput()
	if err != nil || strings.Contains(string(recorded), branch) {
		t.Fatalf("after the forget, neonform output says (%v):\n%s", err, recorded)
	}
	out, err = closing.run("Apply the forget")
	if err != nil || !strings.Contains(out, "the state lists nothing under") {
		t.Fatalf("a second forget: %v\n%s", err, out)
	}
}

type previewBranch struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	endpoints []previewEndpoint
}

type previewEndpoint struct {
	Host string  `json:"host"`
	Min  float64 `json:"autoscaling_limit_min_cu"`
	Max  float64 `json:"autoscaling_limit_max_cu"`
}

// previewBranches are the project's branches named name, with their endpoints.
func previewBranches(t *testing.T, api, key, name string) []previewBranch {
	t.Helper()
	get := func(path string, v any) {
		req, err := http.NewRequest(http.MethodGet, api+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	var list struct {
		Branches []previewBranch `json:"branches"`
	}
	get("/projects/"+previewProject+"/branches", &list)
	var out []previewBranch
	for _, b := range list.Branches {
		if b.Name != name {
			continue
		}
		var eps struct {
			Endpoints []previewEndpoint `json:"endpoints"`
		}
		get("/projects/"+previewProject+"/branches/"+b.ID+"/endpoints", &eps)
		b.endpoints = eps.Endpoints
		out = append(out, b)
	}
	return out
}
