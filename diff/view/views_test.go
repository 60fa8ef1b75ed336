package view

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

func humanOf(t *testing.T, p *diff.Plan, o HumanOptions) string {
	t.Helper()
	var b strings.Builder
	if err := Human(&b, p, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func markdownOf(t *testing.T, p *diff.Plan, limit int) string {
	t.Helper()
	var b strings.Builder
	if err := Markdown(&b, p, limit); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The terminal view: one line per change with its symbol and what it does to
// clients in words, the dangerous ones first, the summary last.
func TestHumanView(t *testing.T) {
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	out := humanOf(t, p, HumanOptions{SavedTo: "out dir/plan.json", ApplyWith: "neonform apply 'out dir/plan.json' infra", Stats: "2 API reads"})
	for _, want := range []string{
		"neonform plan: 2 projects, 5 computes (2 API reads)\n",
		"Changed outside neonform since the last apply:\n   ~ shop.main.primary  ep-primary\n      max_cu            1 -> 2\n   - shop.main.vanished  ep-vanished  deleted outside neonform\n" +
			"      forget shop.main.vanished: its endpoint ep-vanished was deleted outside neonform\n",
		"   - shop.main.old      ep-old              delete\n      shop.main.old is no longer in the configuration: the endpoint ep-old and its host go away\n",
		" -/+ shop.dev.app       ep-dev-app          replace: RECREATE, new host, update connection strings\n      type              read_only -> read_write  cannot change in place\n",
		"      order: the new compute is created first, then the old one deleted\n",
		"   ~ shop.main.primary  ep-primary          update: RESTART, active now, drops connections\n" +
			"      max_cu                2 -> 4           restart\n      pg_settings.work_mem  (unset) -> 64MB  restart\n" +
			"      new size: 0.25-4 CU autoscaling, 1-16 GB RAM, up to 112-1802 connections, LFC 0.75-12 GB, temp disk 60 GiB\n",
		"   + shop.main.new      (new read replica)  create\n      size: 1 CU fixed, 4 GB RAM, 450 connections",
		"   ~ shop.main.reports  ep-reports          update: restart, idle now, no connections to drop\n",
		"   ~ web.main.primary   ep-web              update: restart, idle now, no connections to drop\n",
		"Left alone (not in the configuration): ep-stray on shop.dev (read_only, named \"stray\")\n",
		"Plan: 1 to create, 3 to update (1 restart), 1 to replace, 1 to delete; 1 gone compute to forget.\n",
		"Saved the plan to out dir/plan.json. Apply exactly this plan with: neonform apply 'out dir/plan.json' infra\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want\n%s\nin\n%s", want, out)
		}
	}
	if strings.Contains(out, "neonform will also record in the state") {
		t.Errorf("forgetting a gone compute is listed with the state-only changes to review, not with its drift:\n%s", out)
	}
	// Danger first: what drops something now (the worst first), then the
	// idle restarts, then the rest.
	order := []string{"- shop.main.old", "-/+ shop.dev.app", "~ shop.main.primary  ep-primary          update", "~ shop.main.reports", "~ web.main.primary", "+ shop.main.new"}
	last := -1
	for _, s := range order {
		i := strings.Index(out, s)
		if i < last {
			t.Errorf("%q is listed before what it should follow:\n%s", s, out)
		}
		last = i
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colour without a terminal")
	}
	if colored := humanOf(t, p, HumanOptions{Color: true}); !strings.Contains(colored, "\x1b[31m -/+\x1b[0m") || !strings.Contains(colored, "\x1b[32m   +\x1b[0m") {
		t.Errorf("no colour with Color:\n%q", colored)
	}
}

// With nothing to do, the plan says so in one line.
func TestHumanNoChanges(t *testing.T) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"))))
	p := plantest.MustBuild(t, cfg, plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": live}), plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)))
	if got, want := humanOf(t, p, HumanOptions{Stats: "1 API read"}), "No changes: the live computes match the configuration (1 compute in 1 project, 1 API read).\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	verbose := humanOf(t, p, HumanOptions{Verbose: true})
	if !strings.Contains(verbose, "Unchanged:\n      shop.main.primary (ep-x)\n") {
		t.Errorf("-verbose does not list the unchanged computes:\n%s", verbose)
	}
}

// Many unmanaged endpoints: ten are listed, the rest counted.
func TestHumanUnmanagedAreCut(t *testing.T) {
	var eps []api.Endpoint
	for i := range 13 {
		eps = append(eps, difftest.Endpoint(fmt.Sprintf("ep-%02d", i), difftest.BrDev, difftest.RO))
	}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain)))
	p := plantest.MustBuild(t, cfg, nil, plantest.LiveOf(plantest.LiveProject(difftest.Proj, eps...)))
	out := humanOf(t, p, HumanOptions{})
	if !strings.Contains(out, "ep-09 on branch "+difftest.BrDev+" of shop (read_only); and 3 more (-verbose lists them)") || strings.Contains(out, "ep-10") {
		t.Errorf("got:\n%s", out)
	}
	if out := humanOf(t, p, HumanOptions{Verbose: true}); !strings.Contains(out, "ep-12") {
		t.Errorf("-verbose does not list them all:\n%s", out)
	}
}

// The Markdown comment: the summary line first, then what a reviewer must
// not miss, one table, the calls folded.
func TestMarkdownView(t *testing.T) {
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	out := markdownOf(t, p, 0)
	if !strings.HasPrefix(out, "### neonform plan: 1 to create, 3 to update (1 restart), 1 to replace, 1 to delete; 1 gone compute to forget\n\n"+
		"> - **1 restart of an active compute** (drops connections): `shop.main.primary`\n"+
		"> - **1 recreate** (new host, connection strings change): `shop.dev.app`\n"+
		"> - **1 delete**: `shop.main.old`\n"+
		"> - **1 change made outside neonform is overwritten**: `shop.main.primary` (max_cu 2 -> 4)\n\n"+
		"| | compute | action | disruption | what changes |\n|---|---|---|---|---|\n"+
		"| - | `shop.main.old` | delete | **delete** | ep-old |\n"+
		"| -/+ | `shop.dev.app` | replace | **recreate** | type read_only -> read_write |\n") {
		t.Errorf("the comment does not start with the summary, the alerts and the table:\n%s", out)
	}
	for _, want := range []string{
		"| ~ | `shop.main.primary` | update | **restart** (active) | max_cu 2 -> 4, pg_settings.work_mem (unset) -> 64MB |\n",
		"| ~ | `shop.main.reports` | update | restart (idle) | min_cu 1 -> 2, max_cu 1 -> 2 |\n",
		"| + | `shop.main.new` | create | none | new read replica, 1 CU fixed |\n",
		"- `shop.main.vanished` (ep-vanished): deleted outside neonform; forget shop.main.vanished: its endpoint ep-vanished was deleted outside neonform\n",
		"<details><summary>Changed outside neonform since the last apply (2)</summary>",
		"<details><summary>Left alone: 1 endpoint not in the configuration</summary>",
		"<details><summary>7 API calls, in order</summary>\n\n1. `POST /projects/dark-sun-46453911/endpoints` (shop.dev.app)\n" +
			"2. `DELETE /projects/dark-sun-46453911/endpoints/ep-dev-app` (shop.dev.app)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want\n%s\nin\n%s", want, out)
		}
	}
	if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
		t.Errorf("unbalanced <details>:\n%s", out)
	}
}

// However large the plan, the comment stays under the cap and says what it
// left out. 2,000 changes, each with a long pipe-laden reason to escape.
func TestMarkdownStaysUnderTheCap(t *testing.T) {
	var branches []*config.Branch
	var eps []api.Endpoint
	states := map[string]api.Endpoint{}
	for b := range 200 {
		brID := fmt.Sprintf("br-branch-%03d", b)
		var computes []*config.Compute
		for c := range 10 {
			label := fmt.Sprintf("replica_%d", c)
			name := fmt.Sprintf("analytics|reporting|%03d|%d", b, c)
			ep := difftest.Endpoint(fmt.Sprintf("ep-%03d-%d", b, c), brID, difftest.RO, difftest.EpName(name), difftest.Active)
			eps = append(eps, ep)
			states[fmt.Sprintf("shop.b%03d.%s", b, label)] = ep
			computes = append(computes, difftest.Compute(label, difftest.ReadOnly, difftest.Named(name), difftest.CU(1, 2), difftest.PG("work_mem", "64MB")))
		}
		branches = append(branches, difftest.BranchID(fmt.Sprintf("b%03d", b), brID, computes...))
	}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, branches...))
	p := plantest.MustBuild(t, cfg, plantest.StateWith(difftest.Proj, states), plantest.LiveOf(plantest.LiveProject(difftest.Proj, eps...)))
	if got := len(p.Changes); got != 2000 || p.Summary.Update != 2000 {
		t.Fatalf("%d changes, summary %+v; want 2,000 updates", got, p.Summary)
	}
	for _, limit := range []int{0, 20000, 3000} {
		out := markdownOf(t, p, limit)
		capacity := limit
		if capacity == 0 {
			capacity = DefaultMarkdownLimit
		}
		if n := utf8.RuneCountInString(out); n > capacity {
			t.Errorf("limit %d: %d characters", limit, n)
		}
		if !strings.HasPrefix(out, "### neonform plan: 0 to create, 2000 to update (2000 restarts), 0 to replace, 0 to delete\n") {
			t.Errorf("limit %d: the summary is not first:\n%.300s", limit, out)
		}
		if !strings.Contains(out, "more changes not shown, to keep this comment under the size GitHub allows; `neonform show PLANFILE` lists every change._") {
			t.Errorf("limit %d: the truncation is not said", limit)
		}
		if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
			t.Errorf("limit %d: unbalanced <details>", limit)
		}
		if strings.Contains(out, "analytics|") {
			t.Errorf("limit %d: a | inside a table cell is not escaped", limit)
		}
		var omitted int
		if m := regexp.MustCompile(`_(\d+) more changes not shown`).FindStringSubmatch(out); m != nil {
			omitted, _ = strconv.Atoi(m[1])
		}
		if shown := strings.Count(out, "\n| ~ |"); shown+omitted != 2000 {
			t.Errorf("limit %d: %d changes shown and %d said not shown; want every one of the 2,000 either", limit, shown, omitted)
		}
		if limit == 0 && strings.Count(out, "\n| ~ |") < 100 {
			t.Errorf("the default limit shows only %d changes", strings.Count(out, "\n| ~ |"))
		}
	}
}

// A value too long for a table cell is cut, with a mark, so that the row
// stays readable and the change is still listed; the rest of the comment
// keeps its room.
func TestMarkdownClipsOverLongValues(t *testing.T) {
	long := strings.Repeat("shared_preload_libraries_value,", 700) // 21,700 characters
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary", difftest.PG("search_path", long)), difftest.Compute("reports", difftest.ReadOnly))))
	p := plantest.MustBuild(t, cfg, plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": live}), plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)))
	out := markdownOf(t, p, 0)
	var row string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ~ | `shop.main.primary` |") {
			row = line
		}
	}
	if row == "" {
		t.Fatalf("the change with the long value is not in the table:\n%.2000s", out)
	}
	if n := utf8.RuneCountInString(row); n > maxCell+200 || !strings.HasSuffix(row, "… |") {
		t.Errorf("the row is %d characters and ends %q; want it cut with a mark", n, row[max(0, len(row)-40):])
	}
	if !strings.Contains(out, "| + | `shop.main.reports` |") {
		t.Errorf("the other change is crowded out:\n%.3000s", out)
	}
	if strings.Contains(out, "_1 more change not shown") {
		t.Errorf("a change is left out for the long value")
	}
}

// A plan with nothing to do is one short comment.
func TestMarkdownNoChanges(t *testing.T) {
	p := plantest.MustBuild(t, difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain))), nil, plantest.LiveOf(plantest.LiveProject(difftest.Proj, difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW))))
	want := "### neonform plan: no changes\n\nThe live computes match the configuration.\n\n1 endpoint not in the configuration left alone.\n"
	if got := markdownOf(t, p, 0); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
