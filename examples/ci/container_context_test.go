package ci

import (
	"bytes"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// Every base image of the Containerfile is pinned by digest: a tag alone
// (golang:1.26) can be moved to another image under the same name.
func TestContainerfilePinsItsBaseImagesByDigest(t *testing.T) {
	b, err := os.ReadFile("../../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(string(b), -1)
	if len(froms) == 0 {
		t.Fatal("Containerfile: no FROM")
	}
	pinned := regexp.MustCompile(`^[^@\s]+:[^@\s]+@sha256:[0-9a-f]{64}$`)
	for _, m := range froms {
		if !pinned.MatchString(m[1]) {
			t.Errorf("Containerfile: FROM %s is not pinned by digest: write the tag and its digest, as image:tag@sha256:...", m[1])
		}
	}
}

// The build's context (COPY . .) leaves out what may hold secrets or the
// account's state: states and their backups and locks, plans, variable
// files, the embedded sandbox's .neonform/, .git. Docker reads
// .dockerignore, podman and buildah .containerignore: the two are the same.
func TestContainerBuildLeavesSecretsOut(t *testing.T) {
	ci, err := os.ReadFile("../../.containerignore")
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ci, di) {
		t.Error(".containerignore and .dockerignore differ: keep them the same")
	}
	patterns := ignorePatterns(string(ci))
	for _, p := range []string{
		".git/config", ".neonform/sandbox.json", "infra/.neonform/sandbox.json",
		"neonform.state.json", "infra/neonform.state.json.backup", "infra/neonform.state.json.lock",
		"infra/.neonform.state.json.tmp-42", "state.json", "moved/state.json",
		"plan.json", "infra/plan.json", "prod.plan.json",
		"prod.vars", "infra/prod.vars", "examples/multi-branch/prod.vars", "secrets.vars.json", "x.tfvars",
		".env", "infra/.env.prod", "neonform",
	} {
		if !ignored(patterns, p) {
			t.Errorf("%s would be copied into the build", p)
		}
	}
	for _, p := range []string{"main.go", "go.mod", "go.sum", "state/state.go", "diff/planfile/plan.schema.json", "internal/command/app.go"} {
		if ignored(patterns, p) {
			t.Errorf("%s, which the build needs, is left out", p)
		}
	}
}

// ignorePatterns are the patterns of an ignore file, without comments.
func ignorePatterns(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// ignored reports whether a path of the context matches a pattern as the
// ignore files read them: relative to the context's root (a leading / is
// the root too), ** any number of directories, a match of a directory
// covering all it holds. No pattern here starts with !.
func ignored(patterns []string, p string) bool {
	for _, pat := range patterns {
		pat = strings.TrimSuffix(strings.TrimPrefix(pat, "/"), "/")
		for prefix := p; prefix != "."; prefix = path.Dir(prefix) {
			if matchPath(pat, prefix) {
				return true
			}
		}
	}
	return false
}

// matchPath matches a path against a pattern whose **/ stands for any
// number of directories, none included.
func matchPath(pat, p string) bool {
	if rest, ok := strings.CutPrefix(pat, "**/"); ok {
		parts := strings.Split(p, "/")
		for i := range parts {
			if matchPath(rest, strings.Join(parts[i:], "/")) {
				return true
			}
		}
		return false
	}
	ok, _ := path.Match(pat, p)
	return ok
}
