package ci

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	yaml "github.com/oasdiff/yaml3"
)

// The release builds: linux, macOS and Windows on amd64 and arm64, static,
// with a checksums file, and with the version set at link time.
func TestGoReleaserBuildsEveryPlatform(t *testing.T) {
	b, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Env     []string `yaml:"env"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
			Algorithm    string `yaml:"algorithm"`
		} `yaml:"checksum"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Version != 2 || len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml: version %d with %d builds, want version 2 with one build", cfg.Version, len(cfg.Builds))
	}
	build := cfg.Builds[0]
	for _, want := range []string{"linux", "darwin", "windows"} {
		if !slices.Contains(build.Goos, want) {
			t.Errorf(".goreleaser.yaml builds for %v, not %s", build.Goos, want)
		}
	}
	for _, want := range []string{"amd64", "arm64"} {
		if !slices.Contains(build.Goarch, want) {
			t.Errorf(".goreleaser.yaml builds for %v, not %s", build.Goarch, want)
		}
	}
	if !slices.Contains(build.Env, "CGO_ENABLED=0") {
		t.Errorf(".goreleaser.yaml: the build's env %v lacks CGO_ENABLED=0: the binary would not be static", build.Env)
	}
	if cfg.Checksum.NameTemplate != "checksums.txt" || cfg.Checksum.Algorithm != "sha256" {
		t.Errorf(".goreleaser.yaml: checksums %q by %q, want checksums.txt by sha256 (install-neonform.sh checks with sha256sum -c)", cfg.Checksum.NameTemplate, cfg.Checksum.Algorithm)
	}
	checkVersionFlag(t, ".goreleaser.yaml", strings.Join(build.Ldflags, " "), `v{{.Version}}`)
}

// The container image: a static binary, run by a user who is not root.
func TestContainerfileIsStaticAndNotRoot(t *testing.T) {
	b, err := os.ReadFile("../../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.Contains(text, "CGO_ENABLED=0 go build") {
		t.Error("Containerfile: the go build does not set CGO_ENABLED=0: the binary would not be static")
	}
	froms := regexp.MustCompile(`(?m)^FROM (\S+)`).FindAllStringSubmatch(text, -1)
	if len(froms) == 0 {
		t.Fatal("Containerfile: no FROM")
	}
	final := froms[len(froms)-1][1]
	if !strings.HasPrefix(final, "gcr.io/distroless/static") && final != "scratch" {
		t.Errorf("Containerfile: the image is based on %s, want distroless/static or scratch: the binary alone", final)
	}
	users := regexp.MustCompile(`(?m)^USER (\S+)`).FindAllStringSubmatch(text, -1)
	if len(users) == 0 {
		t.Fatal("Containerfile: no USER: the image would run as root")
	}
	if u := users[len(users)-1][1]; u == "root" || u == "0" || strings.HasPrefix(u, "0:") || strings.HasPrefix(u, "root:") {
		t.Errorf("Containerfile: runs as %s, want a user who is not root", u)
	}
	checkVersionFlag(t, "Containerfile", text, "${VERSION}")
}

// checkVersionFlag checks that flags set, with -X, a string variable that
// exists in neonform's code, to value.
func checkVersionFlag(t *testing.T, file, flags, value string) {
	t.Helper()
	m := regexp.MustCompile(`-X github\.com/neonform/neonform/(\S+)\.(\w+)=(\S+)`).FindStringSubmatch(flags)
	if m == nil {
		t.Errorf("%s: no -X github.com/neonform/neonform/...=VERSION among the link flags: the binary would say devel", file)
		return
	}
	dir, name, got := m[1], m[2], strings.Trim(m[3], `"`)
	if got != value {
		t.Errorf("%s: -X %s.%s=%s, want %s", file, dir, name, got, value)
	}
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("../..", dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Errorf("%s: -X names the package %s, which has no Go files", file, dir)
		return
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range parsed.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				for _, n := range v.Names {
					if id, ok := v.Type.(*ast.Ident); ok && n.Name == name && id.Name == "string" && v.Values == nil {
						return
					}
				}
			}
		}
	}
	t.Errorf("%s: -X sets %s.%s, but that package has no var %s string without a value: the flag would do nothing", file, dir, name, name)
}
