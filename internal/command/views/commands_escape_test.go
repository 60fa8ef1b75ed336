package views

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/textsafe/textsafetest"
	"github.com/neonform/neonform/sizing"
)

// The views of validate, output, the emulator and the embedded sandbox show
// a file's text (addresses, labels, ids, paths, a state's description) and
// a program's error escaped. output's note of an empty state once wrote the
// state's description (its path, from the configuration) as it was.
func TestValidateOutputEmulatorAndSandboxViewsShowTextEscaped(t *testing.T) {
	bad := textsafetest.Name
	var out, notes bytes.Buffer
	row := ValidCompute{Address: "shop.main." + bad, Type: bad, Size: sizing.Size{Min: 1, Max: 1}}
	for _, priced := range []bool{false, true} {
		v := &Valid{Projects: 1, Branches: 1, Computes: 1, Priced: priced, Rows: []ValidCompute{row}}
		if err := WriteValid(&out, v); err != nil {
			t.Fatal(err)
		}
	}
	host := bad
	rows := []OutputRow{{Address: bad, EndpointID: bad, Host: &host, ProjectID: bad, Branch: bad, Type: bad,
		Size: diff.ShownSize{Min: bad, Max: 1.0}}, {Address: "shop.main.b", Size: diff.ShownSize{Min: 1.0, Max: 2.0}}}
	if err := WriteOutput(&out, &notes, bad, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(&out, &notes, "state file "+bad, nil); err != nil {
		t.Fatal(err)
	}
	WriteEmulatorIntro(&out, &EmulatorIntro{Base: "http://127.0.0.1:1/api/v2", DataFile: bad})
	WriteEmulatorPostgres(&out, "127.0.0.1:2", bad)
	WriteEmulatorNoPostgres(&notes, errors.New(bad))
	WriteEmulatorStopped(&notes, bad)
	WriteEmulatorNotKept(&notes, errors.New(bad))
	WriteSandboxPostgres(&notes, &SandboxPostgres{Missing: errors.New(bad)})
	WriteSandboxPostgres(&notes, &SandboxPostgres{DataFile: bad, KeptIn: bad})
	WriteSandboxProject(&notes, bad, bad)
	WriteSandboxBranch(&notes, bad, bad, bad)
	WriteSandboxStopped(&notes, errors.New(bad))
	textsafetest.Terminal(t, "validate, output, emulator and sandbox", out.String()+notes.String())
	if !strings.Contains(notes.String(), "The state (state file x\\x1b") {
		t.Errorf("output's note of an empty state does not name it escaped:\n%s", notes.String())
	}
}
