package state

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neonform/neonform/api"
)

func sampleState() *State {
	s := New()
	s.Computes["shop.main.primary"] = &Compute{
		EndpointID: "ep-cool-darkness-123456", ProjectID: "dark-sun-46453911", BranchID: "br-aged-salad-637688",
		Type: api.EndpointTypeReadWrite, PreventDestroy: true,
		Applied: Attributes{Name: "primary", MinCU: 0.25, MaxCU: 4, SuspendTimeoutSeconds: 300,
			PgSettings: map[string]string{"work_mem": "64MB", "a<b": "x&y"}},
	}
	s.Computes["shop.dev.reporting"] = &Compute{
		EndpointID: "ep-quiet-lake-a1b2c3d4", ProjectID: "dark-sun-46453911", BranchID: "br-dev",
		Type:    api.EndpointTypeReadOnly,
		Applied: Attributes{Name: "reporting", MinCU: 2, MaxCU: 2, SuspendTimeoutSeconds: -1, Disabled: true},
	}
	return s
}

func statePath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "neonform.state.json")
}

func TestLocalMissingFileIsEmptyState(t *testing.T) {
	path := statePath(t)
	s, err := NewLocal(path).Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Serial != 0 || len(s.Computes) != 0 || s.Computes == nil || s.FormatVersion != FormatVersion {
		t.Errorf("missing file read as %+v, want an empty state at serial 0", s)
	}
	if !isUUIDv4(s.Lineage) {
		t.Errorf("lineage %q is not a v4 UUID", s.Lineage)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read created %s: %v", path, err)
	}
}

func TestLocalRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := statePath(t)
	s := sampleState()
	if err := NewLocal(path).Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	got, err := NewLocal(path).Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, got); diff != "" {
		t.Errorf("state read back differs (-written +read):\n%s", diff)
	}
}

// The file format is a contract with users (they read and diff it) and with
// older and newer neonform: this is the exact text for a known state.
func TestLocalFileFormat(t *testing.T) {
	path := statePath(t)
	s := sampleState()
	s.Lineage = "5d0a6c5e-8f43-4d2e-9a51-1c2b3d4e5f60"
	if err := NewLocal(path).Write(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "format_version": 3,
  "lineage": "5d0a6c5e-8f43-4d2e-9a51-1c2b3d4e5f60",
  "serial": 1,
  "computes": {
    "shop.dev.reporting": {
      "endpoint_id": "ep-quiet-lake-a1b2c3d4",
      "project_id": "dark-sun-46453911",
      "branch_id": "br-dev",
      "type": "read_only",
      "prevent_destroy": false,
      "applied": {
        "name": "reporting",
        "min_cu": 2,
        "max_cu": 2,
        "suspend_timeout_seconds": -1,
        "disabled": true
      }
    },
    "shop.main.primary": {
      "endpoint_id": "ep-cool-darkness-123456",
      "project_id": "dark-sun-46453911",
      "branch_id": "br-aged-salad-637688",
      "type": "read_write",
      "prevent_destroy": true,
      "applied": {
        "name": "primary",
        "min_cu": 0.25,
        "max_cu": 4,
        "suspend_timeout_seconds": 300,
        "pg_settings": {
          "a<b": "x&y",
          "work_mem": "64MB"
        },
        "disabled": false
      }
    }
  }
}
`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("state file text (-want +got):\n%s", diff)
	}
}

// A state written in format 1 (before branch_name and host) reads as it is,
// and is written back in this neonform's format.
func TestLocalReadsFormatOneAndWritesTheCurrent(t *testing.T) {
	ctx := context.Background()
	path := statePath(t)
	old, err := os.ReadFile(filepath.Join("testdata", "states", "two_computes_format1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	l := NewLocal(path)
	s, err := l.Read(ctx)
	if err != nil {
		t.Fatalf("Read of a format-1 state = %v", err)
	}
	if s.FormatVersion != 1 || len(s.Computes) != 2 || s.Computes["shop.main.primary"].BranchName != "" {
		t.Fatalf("read %+v", s)
	}
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	again, err := l.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again.FormatVersion != FormatVersion || again.Serial != 3 || !reflect.DeepEqual(again.Computes, s.Computes) {
		t.Errorf("written back: version %d, serial %d, computes equal: %v", again.FormatVersion, again.Serial, reflect.DeepEqual(again.Computes, s.Computes))
	}
}

func TestLocalFileMode0600(t *testing.T) {
	ctx := context.Background()
	path := statePath(t)
	// An existing file readable by others is replaced by one that is not.
	l := NewLocal(path)
	s := sampleState()
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, l.BackupPath()} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, st.Mode().Perm())
		}
	}
}

func TestLocalSerialGrowsByOneAndLineageIsKept(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	s, err := l.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lineage := s.Lineage
	for want := int64(1); want <= 3; want++ {
		if err := l.Write(ctx, s); err != nil {
			t.Fatal(err)
		}
		if s.Serial != want {
			t.Errorf("after write %d, s.Serial = %d", want, s.Serial)
		}
		got, err := l.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got.Serial != want || got.Lineage != lineage {
			t.Errorf("after write %d, stored serial %d lineage %s; want %d %s", want, got.Serial, got.Lineage, want, lineage)
		}
		s = got
	}
}

func TestLocalBackupHoldsPreviousState(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	s := sampleState()
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.BackupPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("first write made a backup, but there was nothing to back up: %v", err)
	}
	first, _ := os.ReadFile(l.Path())
	delete(s.Computes, "shop.dev.reporting")
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	backup, err := os.ReadFile(l.BackupPath())
	if err != nil {
		t.Fatal(err)
	}
	if string(backup) != string(first) {
		t.Errorf("backup is not the state before the write:\n%s\nwant:\n%s", backup, first)
	}
}

func TestLocalWriteRefusedWhenSomeoneElseWrote(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	if err := l.Write(ctx, sampleState()); err != nil {
		t.Fatal(err)
	}
	mine, _ := l.Read(ctx)
	theirs, _ := l.Read(ctx)
	delete(theirs.Computes, "shop.main.primary")
	if err := l.Write(ctx, theirs); err != nil {
		t.Fatal(err)
	}
	stored, _ := os.ReadFile(l.Path())

	mine.Computes["shop.main.other"] = &Compute{EndpointID: "ep-x", Type: api.EndpointTypeReadOnly}
	err := l.Write(ctx, mine)
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("write at a stale serial: got %v, want a *ConflictError", err)
	}
	if ce.StoredSerial != 2 || !strings.Contains(err.Error(), "serial 2") || !strings.Contains(err.Error(), "serial 1") {
		t.Errorf("conflict message does not say the serials: %v", err)
	}
	if mine.Serial != 1 {
		t.Errorf("a refused write changed s.Serial to %d", mine.Serial)
	}
	if after, _ := os.ReadFile(l.Path()); string(after) != string(stored) {
		t.Errorf("a refused write changed the file")
	}
}

func TestLocalWriteRefusedOnAnotherLineage(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	if err := l.Write(ctx, sampleState()); err != nil {
		t.Fatal(err)
	}
	other := sampleState() // a different lineage, at the stored serial
	other.Serial = 1
	err := l.Write(ctx, other)
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "lineage") {
		t.Fatalf("write of another lineage: got %v, want a *ConflictError about the lineage", err)
	}
}

func TestLocalWriteRefusedWhenFileWasRemoved(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(statePath(t))
	s := sampleState()
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	os.Remove(l.Path())
	var ce *ConflictError
	if err := l.Write(ctx, s); !errors.As(err, &ce) {
		t.Fatalf("write after the state file was removed: got %v, want a *ConflictError", err)
	}
}

func TestLocalUnreadableFileIsAnErrorAndLeftAlone(t *testing.T) {
	cases := []struct {
		name, content string
		want          []string // in the message, besides the path
	}{
		{"corrupt", "{\n  \"format_version\": 1,\n  \"lineage\": oops\n}\n", []string{"not valid JSON", "line 3"}},
		{"empty", "", []string{"not valid JSON"}},
		{"newer format", `{"format_version": 4, "lineage": "x", "serial": 3, "computes": {}, "outputs": {}}`, []string{"format_version 4", "newer neonform", "upgrade"}},
		{"no format version", `{"lineage": "x", "serial": 3}`, []string{"no format_version"}},
		{"unknown field", `{"format_version": 1, "lineage": "x", "serial": 3, "computes": {}, "extra": 1}`, []string{`"extra"`}},
		{"wrong type", `{"format_version": 1, "lineage": "x", "serial": "three", "computes": {}}`, []string{"serial"}},
		{"endpoint twice", `{"format_version": 1, "lineage": "x", "serial": 3, "computes": {
			"a.b.c": {"endpoint_id": "ep-1", "type": "read_only"}, "a.b.d": {"endpoint_id": "ep-1", "type": "read_only"}}}`, []string{"ep-1", "twice"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			path := statePath(t)
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			l := NewLocal(path)
			_, err := l.Read(ctx)
			if err == nil {
				t.Fatal("Read succeeded")
			}
			for _, w := range append(tc.want, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			// Writing over it is refused too: what cannot be read is never replaced.
			if err := l.Write(ctx, New()); err == nil {
				t.Error("Write replaced a state it cannot read")
			}
			if got, _ := os.ReadFile(path); string(got) != tc.content {
				t.Errorf("the file was changed to %q", got)
			}
		})
	}
}

// A write that fails after the new file is written but before it replaces
// the old one leaves the old state, no temporary file, and s as it was.
func TestLocalFailedWriteLeavesOldState(t *testing.T) {
	ctx := context.Background()
	path := statePath(t)
	l := NewLocal(path)
	s := sampleState()
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path)

	s.Computes["shop.main.primary"].Applied.MaxCU = 8
	l.beforeRename = func(target string) error {
		if target == path {
			return errors.New("injected failure")
		}
		return nil
	}
	err := l.Write(ctx, s)
	if err == nil || !strings.Contains(err.Error(), "injected failure") || !strings.Contains(err.Error(), path) {
		t.Fatalf("Write = %v, want the injected failure naming %s", err, path)
	}
	if got, _ := os.ReadFile(path); string(got) != string(old) {
		t.Errorf("failed write changed the state file:\n%s", got)
	}
	if s.Serial != 1 {
		t.Errorf("failed write set s.Serial to %d, want 1 unchanged", s.Serial)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}

	// Once the failure is gone the same state is written at the next serial.
	l.beforeRename = nil
	if err := l.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	got, _ := l.Read(ctx)
	if got.Serial != 2 || got.Computes["shop.main.primary"].Applied.MaxCU != 8 {
		t.Errorf("retried write stored serial %d max_cu %v", got.Serial, got.Computes["shop.main.primary"].Applied.MaxCU)
	}
}

func TestLocalWriteInMissingDirectoryNamesIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-such-dir", "neonform.state.json")
	err := NewLocal(path).Write(context.Background(), New())
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Write = %v, want an error naming %s", err, path)
	}
}

func TestLocalWriteRefusesAnInvalidState(t *testing.T) {
	l := NewLocal(statePath(t))
	s := sampleState()
	s.Computes["shop.dev.copy"] = &Compute{EndpointID: s.Computes["shop.main.primary"].EndpointID, Type: api.EndpointTypeReadOnly}
	if err := l.Write(context.Background(), s); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("Write of one endpoint under two addresses = %v, want it refused", err)
	}
	if _, err := os.Stat(l.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("refused write created the file")
	}
}

func isUUIDv4(s string) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	return s[14] == '4' && strings.ContainsRune("89ab", rune(s[19]))
}
