package views

import (
	"bytes"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/generate"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe/textsafetest"
	"github.com/neonform/neonform/state"
)

// The views of import, generate and the state subcommands show a state
// file's and the service's text escaped: addresses, ids, lineages, branch
// and file names built to break a terminal.
func TestStateImportAndGenerateViewsShowTextEscaped(t *testing.T) {
	bad := textsafetest.Name
	var out, notes bytes.Buffer
	x := suggest.Context{Chdir: "infra"}
	entries := []StateEntry{{From: "shop.main." + bad, To: "shop.dev." + bad, EndpointID: bad}, {From: "shop.main.b", To: "shop.dev.b", EndpointID: bad}}
	for _, e := range []StateEdit{
		{Entries: entries[:1], Before: 1, After: 2},
		{Entries: entries, Before: 1, After: 2},
		{Entries: entries, DryRun: true, Before: 1, After: 1},
		{Move: true, From: "shop.main", To: bad, Entries: entries, Before: 1, After: 2},
		{Move: true, One: true, From: bad, To: bad, Entries: entries[:1], Before: 1, After: 2},
		{Move: true, Entries: entries, DryRun: true},
	} {
		WriteStateEdit(&out, &e, x)
	}
	rows := []StateRow{{Address: bad, EndpointID: bad, Type: bad}}
	for _, l := range []StateList{{Where: bad, Empty: true}, {Where: bad, Prefix: bad, Some: "it records " + bad}, {Rows: rows}} {
		if err := WriteStateList(&out, &notes, &l); err != nil {
			t.Fatal(err)
		}
	}
	c := &state.Compute{EndpointID: bad, Host: bad, ProjectID: bad, BranchName: bad, Type: api.EndpointTypeReadOnly}
	WriteStateShow(&out, bad, c)
	WriteUnlocked(&out, bad, bad)
	pushed := state.Pushed{Replaced: true, StoredLineage: bad, StoredSerial: 3, Serial: 4, Forced: "it holds lineage " + bad}
	WriteStatePush(&out, &StatePush{Source: "state file " + bad, Where: bad, Lineage: bad, Serial: 2, Computes: 1, Result: pushed}, x)
	WriteStatePush(&out, &StatePush{Where: bad, Lineage: bad, Result: state.Pushed{Unchanged: true}}, x)
	WriteImported(&out, &Imported{EndpointID: bad, Address: "shop.main." + bad, Type: bad, Branch: bad}, x)
	files := []*generate.File{
		{Name: bad + ".hcl", Label: bad, Branches: 2, Computes: 2},
		{Name: "shop.hcl", Label: "shop", Rule: &generate.RuleReport{Label: "previews", Branches: 3,
			Own: []generate.OwnBranch{{Name: bad, Label: "own"}}, Excluded: []string{bad}}},
	}
	WriteGeneratedFiles(&out, files, []string{bad})
	WriteGeneratedRecorded(&out, 2, bad, x)
	textsafetest.Terminal(t, "state, import and generate", out.String()+notes.String())
	// The commands they suggest are written in the run's context.
	if got := strings.Count(out.String(), "`neonform -chdir=infra plan`"); got != 5 {
		t.Errorf("%d suggestions of plan written with -chdir, want 5 (two moves, a push, import, generate):\n%s", got, out.String())
	}
}
