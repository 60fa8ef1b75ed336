package generate

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
)

func TestRuleLabelComesFromTheGlob(t *testing.T) {
	for glob, want := range map[string]string{
		"preview/*":     "previews",
		"test-*":        "tests",
		"ci/runs/*":     "ci-runs",
		"*":             "branches",
		"[a-z]*":        "branches",
		"2024-*":        "branches",
		"Feature/*/wip": "features",
		`pr\*`:          "prs",
	} {
		if got := RuleLabel(glob); got != want {
			t.Errorf("RuleLabel(%q) = %q, want %q", glob, got, want)
		}
		if r := (&Rule{Match: []string{glob}}); r.Check() != nil || r.label() != want {
			t.Errorf("a rule of %q is refused, or labelled %q", glob, r.label())
		}
	}
	if got := RuleLabel(strings.Repeat("a", 100) + "*"); len(got) > maxLabel {
		t.Errorf("RuleLabel of a long glob = %q, longer than %d", got, maxLabel)
	}
}

// A branch the rule leaves out is excluded by a glob that matches its name
// alone, whatever the name holds.
func TestLiteralGlobMatchesTheNameAlone(t *testing.T) {
	for _, name := range []string{"preview/pr-1", "preview/a*b", "a?b", "x[1]", `back\slash`, "über/*"} {
		g := literalGlob(name)
		if ok, err := path.Match(g, name); !ok || err != nil {
			t.Errorf("literalGlob(%q) = %q does not match it (%v)", name, g, err)
		}
		for _, other := range []string{name + "x", "preview/pr-2", "aXb", "x1", "über/x"} {
			if ok, _ := path.Match(g, other); ok && other != name {
				t.Errorf("literalGlob(%q) = %q matches %q too", name, g, other)
			}
		}
	}
}

func TestRuleCheckNamesTheFlag(t *testing.T) {
	for _, c := range []struct {
		rule Rule
		want string
	}{
		{Rule{Exclude: []string{"x"}}, "-exclude and -rule go with -match"},
		{Rule{Match: []string{"preview/[a"}}, `-match "preview/[a" is not a glob`},
		{Rule{Match: []string{"*"}, Exclude: []string{`a\`}}, `-exclude "a\\" is not a glob`},
		{Rule{Match: []string{"*"}, Label: "Pre views"}, "try -rule pre-views"},
	} {
		err := c.rule.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: Check() = %v, want %q", c.rule, err, c.want)
		}
	}
}

// Branches the rule matches that share a name are never its instances (an
// instance is known by its branch's name): they keep blocks pinned by id,
// and a twin without computes is excluded by name, so that the plan finds
// no ambiguous instance. On a tie between two shapes, the first branch by
// name gives the rule its computes. The configuration plans to nothing.
func TestTwinBranchesStayOutOfTheRule(t *testing.T) {
	rw := func(id, branch string, max float64) api.Endpoint {
		return api.Endpoint{ID: id, BranchID: branch, Type: api.EndpointTypeReadWrite, AutoscalingLimitMinCU: 0.25, AutoscalingLimitMaxCU: max}
	}
	f := &fakeService{projects: []*Project{{
		ID: "dark-sun-46453911", Name: "shop",
		Branches: []api.Branch{
			{ID: "br-main", Name: "main", Default: true},
			{ID: "br-t1", Name: "pr/twin"},
			{ID: "br-t2", Name: "pr/twin"},
			{ID: "br-1", Name: "pr/1"},
			{ID: "br-2", Name: "pr/2"},
		},
		Endpoints: []api.Endpoint{rw("ep-main", "br-main", 1), rw("ep-t1", "br-t1", 1), rw("ep-1", "br-1", 2), rw("ep-2", "br-2", 1)},
	}}}
	projects, err := Read(context.Background(), f, []string{"dark-sun-46453911"}, false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Make(projects, Options{Dir: ".", Rule: &Rule{Match: []string{"pr/*"}}})
	if err != nil {
		t.Fatal(err)
	}
	file := res.Files[0]
	if r := file.Rule; r == nil || r.Label != "prs" || r.Branches != 1 || len(r.Own) != 1 || r.Own[0].Name != "pr/2" || strings.Join(r.Excluded, " ") != "pr/twin" {
		t.Fatalf("rule = %+v, want prs for pr/1, pr/2 in a block of its own, pr/twin excluded", r)
	}
	src := string(file.Src)
	for _, want := range []string{`id = "br-t1"`, `exclude = "pr/twin"`, "max_cu = 2\n"} {
		if !strings.Contains(src, want) {
			t.Errorf("the file lacks %q:\n%s", want, src)
		}
	}
	addrs := map[string]bool{}
	for _, c := range res.Computes {
		addrs[c.Address] = true
	}
	if !addrs[`shop.prs["pr/1"].primary`] || len(addrs) != 4 {
		t.Errorf("addresses %v, want shop.prs[\"pr/1\"].primary among 4", addrs)
	}
	cfg, diags := config.LoadSources(".", map[string][]byte{file.Name: file.Src}, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags.String(), src)
	}
	if err := Check(cfg, projects, res, checkOptions()); err != nil {
		t.Fatal(err)
	}
}
