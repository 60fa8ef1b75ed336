package ci

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"text/template"

	yaml "github.com/oasdiff/yaml3"
)

// release is a fake neonform release, named as .goreleaser.yaml names the
// real one's files: what install-neonform.sh downloads must be what a release
// has.
type release struct {
	archiveName   string
	checksumsName string
	archive       []byte
	files         map[string][]byte // served under /VERSION/
}

const fakeVersion = "v1.2.3"

// newRelease builds the archive of this machine's OS and architecture, with
// a neonform that says which it is, and its checksums file.
func newRelease(t *testing.T) *release {
	t.Helper()
	b, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Archives []struct {
			Formats      []string `yaml:"formats"`
			NameTemplate string   `yaml:"name_template"`
		} `yaml:"archives"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
		} `yaml:"checksum"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Archives) != 1 || len(cfg.Archives[0].Formats) != 1 || cfg.Archives[0].Formats[0] != "tar.gz" {
		t.Fatalf(".goreleaser.yaml: want one archive, tar.gz (zip on windows), got %+v", cfg.Archives)
	}
	// GoReleaser's templates are Go templates; .Version is the tag without its v.
	var name strings.Builder
	tmpl := template.Must(template.New("archive").Option("missingkey=error").Parse(cfg.Archives[0].NameTemplate))
	if err := tmpl.Execute(&name, map[string]string{"Version": strings.TrimPrefix(fakeVersion, "v"), "Os": runtime.GOOS, "Arch": runtime.GOARCH}); err != nil {
		t.Fatalf(".goreleaser.yaml's archive name_template uses more than .Version, .Os and .Arch: %v", err)
	}
	r := &release{archiveName: name.String() + ".tar.gz", checksumsName: cfg.Checksum.NameTemplate}

	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name, body string
		mode       int64
	}{
		{"README.md", "# neonform\n", 0o644},
		{"neonform", "#!/bin/sh\necho 'neonform " + fakeVersion + " (from the archive)'\n", 0o755},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(f.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	r.archive = buf.Bytes()
	r.files = map[string][]byte{
		r.archiveName: r.archive,
		// Another platform's line first: only the archive's own line is checked.
		r.checksumsName: fmt.Appendf(nil, "%x  neonform_1.2.3_plan9_mips.tar.gz\n%x  %s\n", sha256.Sum256([]byte("other")), sha256.Sum256(r.archive), r.archiveName),
	}
	return r
}

func (r *release) serve(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, ok := r.files[strings.TrimPrefix(req.URL.Path, "/"+fakeVersion+"/")]
		if !ok || !strings.HasPrefix(req.URL.Path, "/"+fakeVersion+"/") {
			http.NotFound(w, req)
			return
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

type installRun struct {
	out    string
	err    error
	dir    string // where neonform was to go
	goArgs string // what the fake go was called with, "" if not
	path   string // what the script added to GITHUB_PATH
}

// install runs install-neonform.sh with a fake go on the PATH that records
// its call and "builds" a neonform that says it came from go install.
func install(t *testing.T, releasesURL string, env ...string) installRun {
	t.Helper()
	tmp := t.TempDir()
	fakeBin := filepath.Join(tmp, "fakebin")
	if err := os.Mkdir(fakeBin, 0o755); err != nil {
		t.Fatal(err)
	}
	goLog := filepath.Join(tmp, "go.log")
	fakeGo := "#!/bin/sh\necho \"GOBIN=$GOBIN $*\" > '" + goLog + "'\n" +
		"if [ -n \"$FAKE_GO_UNPUBLISHED\" ]; then echo \"go: github.com/neonform/neonform@$NEONFORM_VERSION: unknown revision\" >&2; exit 1; fi\n" +
		"printf '#!/bin/sh\\necho neonform from go install\\n' > \"$GOBIN/neonform\"\nchmod +x \"$GOBIN/neonform\"\n"
	if err := os.WriteFile(filepath.Join(fakeBin, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "bin")
	ghPath := filepath.Join(tmp, "github_path")
	cmd := exec.Command("bash", "install-neonform.sh")
	cmd.Env = append([]string{
		"PATH=" + fakeBin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + tmp,
		"NEONFORM_RELEASES_URL=" + releasesURL,
		"NEONFORM_INSTALL_DIR=" + dir,
		"GITHUB_PATH=" + ghPath,
	}, env...)
	out, err := cmd.CombinedOutput()
	goArgs, _ := os.ReadFile(goLog)
	path, _ := os.ReadFile(ghPath)
	return installRun{out: string(out), err: err, dir: dir, goArgs: strings.TrimSpace(string(goArgs)), path: strings.TrimSpace(string(path))}
}

func (r installRun) installed() bool {
	_, err := os.Stat(filepath.Join(r.dir, "neonform"))
	return err == nil
}

// The release's archive is installed when its digest is the one checksums.txt
// lists (and NEONFORM_SHA256 pins, when set), and the directory goes on the
// job's PATH.
func TestInstallFromTheReleaseArchive(t *testing.T) {
	r := newRelease(t)
	url := r.serve(t)
	for _, pin := range []string{"", fmt.Sprintf("%x", sha256.Sum256(r.archive))} {
		run := install(t, url, "NEONFORM_VERSION="+fakeVersion, "NEONFORM_SHA256="+pin)
		if run.err != nil {
			t.Fatalf("NEONFORM_SHA256=%q: %v\n%s", pin, run.err, run.out)
		}
		if !strings.Contains(run.out, r.archiveName+": OK") || !strings.Contains(run.out, "neonform "+fakeVersion+" (from the archive)") {
			t.Errorf("NEONFORM_SHA256=%q: the output does not show the checked archive's neonform:\n%s", pin, run.out)
		}
		if run.goArgs != "" {
			t.Errorf("go was run (%s) although the release has an archive", run.goArgs)
		}
		if run.path != run.dir {
			t.Errorf("GITHUB_PATH got %q, want %q", run.path, run.dir)
		}
	}
}

// An archive whose digest is not the expected one is refused, and nothing is
// installed: not the archive, and not a go install in its place.
func TestInstallRefusesAnArchiveThatDoesNotMatch(t *testing.T) {
	r := newRelease(t)
	tampered := newRelease(t)
	tampered.files[r.archiveName] = append(append([]byte{}, r.archive...), 0)
	cases := map[string]struct {
		rel *release
		env []string
	}{
		"replaced archive":         {tampered, nil},
		"pinned digest differs":    {r, []string{"NEONFORM_SHA256=" + strings.Repeat("0", 64)}},
		"no line for this archive": {&release{files: map[string][]byte{r.checksumsName: []byte("abc  other.tar.gz\n"), r.archiveName: r.archive}}, nil},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			run := install(t, c.rel.serve(t), append([]string{"NEONFORM_VERSION=" + fakeVersion}, c.env...)...)
			if run.err == nil {
				t.Fatalf("the install succeeded:\n%s", run.out)
			}
			if run.installed() || run.goArgs != "" || run.path != "" {
				t.Errorf("something was installed (go: %q, PATH: %q):\n%s", run.goArgs, run.path, run.out)
			}
			if !strings.Contains(run.out, "nothing installed") {
				t.Errorf("the output does not say nothing was installed:\n%s", run.out)
			}
		})
	}
}

// A version with no release archives is built with go install at that tag,
// into the same directory.
func TestInstallFallsBackToGoInstall(t *testing.T) {
	empty := &release{files: map[string][]byte{}}
	run := install(t, empty.serve(t), "NEONFORM_VERSION="+fakeVersion)
	if run.err != nil {
		t.Fatalf("%v\n%s", run.err, run.out)
	}
	if want := "GOBIN=" + run.dir + " install github.com/neonform/neonform@" + fakeVersion; run.goArgs != want {
		t.Errorf("go ran with %q, want %q", run.goArgs, want)
	}
	if !strings.Contains(run.out, "neonform from go install") || run.path != run.dir {
		t.Errorf("the go-installed neonform did not run, or its directory is not on the PATH (%q):\n%s", run.path, run.out)
	}
}

// A version that is published nowhere (no release archive, no module
// version) fails saying so, and how to see which versions exist.
func TestInstallSaysWhenAVersionIsNotPublished(t *testing.T) {
	empty := &release{files: map[string][]byte{}}
	run := install(t, empty.serve(t), "NEONFORM_VERSION="+fakeVersion, "FAKE_GO_UNPUBLISHED=1")
	if run.err == nil || run.installed() || run.path != "" {
		t.Fatalf("an unpublished version installed (PATH %q):\n%s", run.path, run.out)
	}
	for _, want := range []string{"neonform " + fakeVersion + " is not published", "Nothing installed", "go list -m -versions github.com/neonform/neonform"} {
		if !strings.Contains(run.out, want) {
			t.Errorf("the output lacks %q:\n%s", want, run.out)
		}
	}
}

// A version that is not a release tag is refused before anything is fetched.
func TestInstallRefusesAVersionThatIsNotATag(t *testing.T) {
	r := newRelease(t)
	url := r.serve(t)
	for _, v := range []string{"", "main", "latest", "1.2.3"} {
		run := install(t, url, "NEONFORM_VERSION="+v)
		if run.err == nil || run.installed() || run.goArgs != "" {
			t.Errorf("NEONFORM_VERSION=%q: installed (go: %q):\n%s", v, run.goArgs, run.out)
		}
		if !strings.Contains(run.out, "NEONFORM_VERSION") {
			t.Errorf("NEONFORM_VERSION=%q: the error does not name NEONFORM_VERSION:\n%s", v, run.out)
		}
	}
}
