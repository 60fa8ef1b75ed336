// Package ci holds the tests of the CI files users copy: the GitHub Actions
// workflows in this directory, the script that installs neonform in them,
// and the release files it downloads (.goreleaser.yaml, Containerfile).
// actionlint and shellcheck (in .ci/run) check that the workflows are valid;
// these tests check that they do what docs/pipelines.md says.
package ci

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	yaml "github.com/oasdiff/yaml3"
)

// workflow is the part of a GitHub Actions workflow the tests read. It is
// decoded with the YAML reader already in go.mod (kin-openapi's), a full
// YAML parser: a reader of our own would be a second, partial one that might
// read a file otherwise than GitHub does.
type workflow struct {
	file string
	On   map[string]yaml.Node `yaml:"on"`
	Env  map[string]string    `yaml:"env"`
	Jobs map[string]*job      `yaml:"jobs"`
}

type job struct {
	If             string            `yaml:"if"`
	TimeoutMinutes int               `yaml:"timeout-minutes"`
	Environment    string            `yaml:"environment"`
	Concurrency    *concurrency      `yaml:"concurrency"`
	Env            map[string]string `yaml:"env"`
	Steps          []step            `yaml:"steps"`
}

type concurrency struct {
	Group            string `yaml:"group"`
	CancelInProgress bool   `yaml:"cancel-in-progress"`
}

type step struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

// readWorkflows decodes every workflow of this directory.
func readWorkflows(t *testing.T) map[string]*workflow {
	t.Helper()
	files, err := filepath.Glob("*.yml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*workflow{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w := &workflow{file: f}
		if err := yaml.Unmarshal(b, w); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = w
	}
	for _, want := range []string{"neonform.yml", "neonform-previews.yml", "neonform-drift.yml"} {
		if out[want] == nil {
			t.Fatalf("no workflow %s in examples/ci", want)
		}
	}
	return out
}

// runs says whether a step's script runs the neonform command cmd ("plan",
// "apply", "output"; "" for any): neonform where a command starts (a line,
// $(...), after a pipe or ;), not in the words of an echo.
func (s step) runs(cmd string) bool {
	return regexp.MustCompile(`(?m)(^\s*|\$\(|[|;&]\s*)neonform ` + cmd).MatchString(s.Run)
}

func (j *job) runs(cmd string) bool {
	return slices.ContainsFunc(j.Steps, func(s step) bool { return s.runs(cmd) })
}

// secretsUsed are the secrets a job's steps and its own env read.
func (j *job) secretsUsed() []string {
	var out []string
	re := regexp.MustCompile(`secrets\.(\w+)`)
	add := func(env map[string]string) {
		for _, v := range env {
			for _, m := range re.FindAllStringSubmatch(v, -1) {
				out = append(out, m[1])
			}
		}
	}
	add(j.Env)
	for _, s := range j.Steps {
		add(s.Env)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Every action runs at the commit the workflow names, not at a tag its owner
// can move: owner/repo@<40 hex digits>, the same commit of an action in every
// workflow, with the tag it was in as a comment for the reader.
func TestActionsArePinnedByCommit(t *testing.T) {
	pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+@[0-9a-f]{40}$`)
	commitOf := map[string]string{}
	uses := 0
	for f, w := range readWorkflows(t) {
		for name, j := range w.Jobs {
			for _, s := range j.Steps {
				if s.Uses == "" {
					continue
				}
				uses++
				if !pinned.MatchString(s.Uses) {
					t.Errorf("%s: job %s uses %s: pin it to a commit, as owner/repo@<sha> # vX.Y.Z", f, name, s.Uses)
					continue
				}
				action, commit, _ := strings.Cut(s.Uses, "@")
				if prev, ok := commitOf[action]; ok && prev != commit {
					t.Errorf("%s: %s at %s, elsewhere at %s: one commit of an action everywhere", f, action, commit, prev)
				}
				commitOf[action] = commit
			}
		}
		b, _ := os.ReadFile(f)
		for _, line := range regexp.MustCompile(`(?m)^\s*(?:- )?uses: .*$`).FindAllString(string(b), -1) {
			if !regexp.MustCompile(`@[0-9a-f]{40} # v\d+(\.\d+)*$`).MatchString(line) {
				t.Errorf("%s: %q: say which tag the commit was in (# vX.Y.Z)", f, strings.TrimSpace(line))
			}
		}
	}
	if uses < 10 {
		t.Errorf("read %d uses of actions: is the decoding broken?", uses)
	}
}

// A job that hangs is stopped, not left to GitHub's six hours.
func TestEveryJobHasATimeout(t *testing.T) {
	for f, w := range readWorkflows(t) {
		if len(w.Jobs) == 0 {
			t.Errorf("%s: no jobs read", f)
		}
		for name, j := range w.Jobs {
			if j.TimeoutMinutes <= 0 || j.TimeoutMinutes > 60 {
				t.Errorf("%s: job %s has timeout-minutes %d, want 1 to 60", f, name, j.TimeoutMinutes)
			}
		}
	}
}

// A plan of a superseded push is cancelled, since the newer run plans again;
// an apply is never cancelled, since it would stop between two calls (apply
// records what it did, but the fleet is then half changed). A job that
// changes computes holds the apply key, which lives in an environment that
// can require a reviewer and keep it from other branches; no other job has it.
func TestPlansCancelAndAppliesDoNot(t *testing.T) {
	applies, plans := 0, 0
	for f, w := range readWorkflows(t) {
		for name, j := range w.Jobs {
			secrets := j.secretsUsed()
			switch {
			case j.runs("apply"):
				applies++
				if j.Concurrency == nil || j.Concurrency.Group == "" || j.Concurrency.CancelInProgress {
					t.Errorf("%s: job %s applies: give it a concurrency group with cancel-in-progress: false", f, name)
				}
				if j.Environment == "" {
					t.Errorf("%s: job %s applies outside an environment: its key belongs to one", f, name)
				}
				if !slices.Contains(secrets, "NEON_APPLY_API_KEY") || slices.Contains(secrets, "NEON_API_KEY") {
					t.Errorf("%s: job %s applies with secrets %v, want NEON_APPLY_API_KEY (the environment's) and not the plans' NEON_API_KEY", f, name, secrets)
				}
			case j.runs("plan"):
				plans++
				if j.Concurrency == nil || j.Concurrency.Group == "" || !j.Concurrency.CancelInProgress {
					t.Errorf("%s: job %s plans: give it a concurrency group with cancel-in-progress: true", f, name)
				}
				if slices.Contains(secrets, "NEON_APPLY_API_KEY") {
					t.Errorf("%s: job %s only plans, but holds the apply key", f, name)
				}
			default:
				if slices.Contains(secrets, "NEON_APPLY_API_KEY") && j.Environment == "" {
					t.Errorf("%s: job %s holds the apply key outside an environment", f, name)
				}
			}
		}
	}
	if applies < 3 || plans < 3 {
		t.Errorf("found %d applying and %d planning jobs, want the 3 and 3 the workflows have", applies, plans)
	}
}

// Each job that runs neonform installs the pinned release first (the script
// checks the archive's checksum), after Go and its build cache for the
// go install fallback; every workflow pins the same release.
func TestJobsInstallThePinnedRelease(t *testing.T) {
	version := ""
	for f, w := range readWorkflows(t) {
		v := w.Env["NEONFORM_VERSION"]
		if !regexp.MustCompile(`^v\d+\.\d+\.\d+$`).MatchString(v) {
			t.Errorf("%s: NEONFORM_VERSION is %q, want a release tag vMAJOR.MINOR.PATCH", f, v)
		}
		if version != "" && v != version {
			t.Errorf("%s: NEONFORM_VERSION %s, another workflow %s: pin one release", f, v, version)
		}
		version = v
		for name, j := range w.Jobs {
			first := slices.IndexFunc(j.Steps, func(s step) bool { return s.runs("") })
			if first < 0 {
				continue
			}
			install := slices.IndexFunc(j.Steps, func(s step) bool {
				return s.Run == `bash "$GITHUB_WORKSPACE/.github/neonform/install-neonform.sh"`
			})
			setupGo := slices.IndexFunc(j.Steps, func(s step) bool { return strings.HasPrefix(s.Uses, "actions/setup-go@") })
			cache := slices.IndexFunc(j.Steps, func(s step) bool {
				return strings.HasPrefix(s.Uses, "actions/cache@") && strings.Contains(s.With["path"], "go-build") &&
					strings.Contains(s.With["key"], "env.NEONFORM_VERSION")
			})
			switch {
			case install < 0 || install > first:
				t.Errorf("%s: job %s runs neonform without installing it first with install-neonform.sh", f, name)
			case setupGo < 0 || setupGo > install || cache < 0 || cache > install:
				t.Errorf("%s: job %s installs neonform without Go and its build cache (keyed on the version) before it", f, name)
			}
		}
	}
}

// The plan/apply workflow: checks on pull requests, plan then apply on main.
func TestPlanApplyWorkflow(t *testing.T) {
	w := readWorkflows(t)["neonform.yml"]
	for _, trigger := range []string{"pull_request", "pull_request_target", "push"} {
		if _, ok := w.On[trigger]; !ok {
			t.Errorf("neonform.yml: no %s trigger", trigger)
		}
	}
	apply := w.Jobs["apply"]
	if apply == nil || !apply.runs("apply") || apply.Environment != "production" {
		t.Fatalf("neonform.yml: no apply job in the environment production")
	}
	if plan := w.Jobs["plan"]; plan == nil || !plan.runs("plan") || !strings.Contains(apply.If, "needs.plan.outputs.changes") {
		t.Errorf("neonform.yml: the apply job must follow a plan job, and run only when it has changes")
	}
}

// The preview workflow: a compute for each pull request's branch, created on
// open and push, its host handed on, and forgotten on close.
func TestPreviewWorkflow(t *testing.T) {
	w := readWorkflows(t)["neonform-previews.yml"]
	var pr struct {
		Types []string `yaml:"types"`
	}
	trigger, ok := w.On["pull_request"]
	if !ok {
		t.Fatal("neonform-previews.yml: no pull_request trigger")
	}
	if err := trigger.Decode(&pr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"opened", "synchronize", "reopened", "closed"} {
		if !slices.Contains(pr.Types, want) {
			t.Errorf("neonform-previews.yml: pull_request types %v lack %s", pr.Types, want)
		}
	}
	if len(w.On) != 1 {
		t.Errorf("neonform-previews.yml: triggers %v, want pull_request alone", keys(w.On))
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
	if open == nil || closed == nil {
		t.Fatal("neonform-previews.yml: want one job for open/push (if: action != 'closed') and one for close (if: action == 'closed')")
	}
	createBranch := stepIndex(open, func(s step) bool { return strings.Contains(s.Run, "-X POST") && strings.Contains(s.Run, "/branches") })
	applyTarget := stepIndex(open, func(s step) bool {
		return s.runs("apply") && strings.Contains(s.Run, "-auto-approve") && strings.Contains(s.Run, `-target "${PREVIEW_RULE}[\"${BRANCH}\"]"`)
	})
	host := stepIndex(open, func(s step) bool {
		return s.runs("output") && strings.Contains(s.Run, "-json") && strings.Contains(s.Run, "GITHUB_OUTPUT")
	})
	if !(createBranch >= 0 && createBranch < applyTarget && applyTarget < host) {
		t.Errorf("neonform-previews.yml: on open, want: create the branch (step %d), apply -auto-approve -target its instance (step %d), output its host (step %d), in that order", createBranch, applyTarget, host)
	}
	deleteBranch := stepIndex(closed, func(s step) bool { return strings.Contains(s.Run, "-X DELETE") })
	forget := stepIndex(closed, func(s step) bool { return s.runs("apply") && strings.Contains(s.Run, "-target") })
	if !(deleteBranch >= 0 && deleteBranch < forget) {
		t.Errorf("neonform-previews.yml: on close, want: delete the branch (step %d), then apply the forget (step %d)", deleteBranch, forget)
	}
	if open.Concurrency == nil || closed.Concurrency == nil || open.Concurrency.Group != closed.Concurrency.Group {
		t.Errorf("neonform-previews.yml: the open and close jobs of a pull request must share a concurrency group, so a close waits for an apply")
	}
	if !regexp.MustCompile(`^preview/pr-\$\{\{ github\.event\.pull_request\.number \}\}$`).MatchString(w.Env["BRANCH"]) {
		t.Errorf("neonform-previews.yml: BRANCH is %q, want one branch per pull request", w.Env["BRANCH"])
	}
}

// The drift check: on a schedule, plan -detailed-exitcode, and changes fail
// the run (and open an issue).
func TestDriftWorkflow(t *testing.T) {
	w := readWorkflows(t)["neonform-drift.yml"]
	var schedule []struct {
		Cron string `yaml:"cron"`
	}
	trigger, ok := w.On["schedule"]
	if !ok {
		t.Fatal("neonform-drift.yml: no schedule trigger")
	}
	if err := trigger.Decode(&schedule); err != nil || len(schedule) == 0 || len(strings.Fields(schedule[0].Cron)) != 5 {
		t.Errorf("neonform-drift.yml: schedule %v (%v), want a cron of five fields", schedule, err)
	}
	found := false
	for name, j := range w.Jobs {
		plan := stepIndex(j, func(s step) bool { return s.runs("plan") && strings.Contains(s.Run, "-detailed-exitcode") })
		if plan < 0 {
			continue
		}
		found = true
		id := j.Steps[plan].ID
		fail := stepIndex(j, func(s step) bool {
			return strings.Contains(s.If, "steps."+id+".outputs.drift == 'true'") && strings.Contains(s.Run, "exit 1") &&
				strings.Contains(s.Run, "gh issue create")
		})
		if id == "" || fail < plan {
			t.Errorf("neonform-drift.yml: job %s plans with -detailed-exitcode, but no later step opens an issue and fails when it finds drift", name)
		}
		if j.runs("apply") {
			t.Errorf("neonform-drift.yml: job %s applies: a drift check changes nothing", name)
		}
	}
	if !found {
		t.Error("neonform-drift.yml: no job runs neonform plan -detailed-exitcode")
	}
}

func stepIndex(j *job, f func(step) bool) int { return slices.IndexFunc(j.Steps, f) }

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
