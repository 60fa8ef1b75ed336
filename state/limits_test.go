package state

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tooManyComputes is a state document of n computes, compact, as a hand or
// another tool might write it.
func tooManyComputes(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"format_version": 1, "lineage": "5d0a6c5e-8f43-4d2e-9a51-1c2b3d4e5f60", "serial": 3, "computes": {`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p.main.c%d":{"endpoint_id":"ep-%08d","project_id":"p-1","branch_id":"br-1","type":"read_only","applied":{"min_cu":0.25,"max_cu":1}}`, i, i)
	}
	b.WriteString("}}\n")
	return b.Bytes()
}

// A state of more computes than MaxComputes is refused by every reader: a
// state file, a Postgres row and `state push` (Decode), with the limit
// and what to do; the file or row is left as it was. One at the limit is
// read.
func TestStateAboveTheComputesLimitIsRefused(t *testing.T) {
	ctx := context.Background()
	over := tooManyComputes(MaxComputes + 1)
	wantIn := func(t *testing.T, err error, source string) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: read a state of %d computes", source, MaxComputes+1)
		}
		for _, want := range []string{source, fmt.Sprintf("records %d computes, more than a state may (%d)", MaxComputes+1, MaxComputes), "docs/limits.md"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q\nlacks %q", err, want)
			}
		}
	}
	t.Run("push", func(t *testing.T) {
		_, err := Decode(context.Background(), over, "state file big.json")
		wantIn(t, err, "state file big.json")
	})
	t.Run("file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "neonform.state.json")
		if err := os.WriteFile(path, over, 0o600); err != nil {
			t.Fatal(err)
		}
		l := NewLocal(path)
		_, err := l.Read(ctx)
		wantIn(t, err, path)
		s := New()
		s.Lineage, s.Serial = "5d0a6c5e-8f43-4d2e-9a51-1c2b3d4e5f60", 3
		if err := l.Write(ctx, s); err == nil {
			t.Errorf("Write over a state above the limit succeeded")
		}
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, over) {
			t.Errorf("the state file changed (%v)", err)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		p, dsn, name := newTestPostgres(t)
		sql(t, dsn, `INSERT INTO neonform_state (name, lineage, serial, data) VALUES ($1, '5d0a6c5e-8f43-4d2e-9a51-1c2b3d4e5f60', 3, $2::jsonb)`, name, string(over))
		_, err := p.Read(ctx)
		wantIn(t, err, name)
	})
	t.Run("at the limit", func(t *testing.T) {
		s, err := Decode(context.Background(), tooManyComputes(MaxComputes), "state file big.json")
		if err != nil || len(s.Computes) != MaxComputes {
			t.Fatalf("a state of %d computes: %v", MaxComputes, err)
		}
	})
}

// A state of more than MaxFileSize bytes is refused before it is decoded,
// wherever it comes from (Decode: a push from standard input, a Postgres
// row); a state file is not even read past the limit.
func TestStateAboveTheSizeLimitIsRefused(t *testing.T) {
	doc := []byte(`{"format_version": 1, "lineage": "5d0a6c5e-8f43-4d2e-9a51-1c2b3d4e5f60", "serial": 3, "computes": {}}`)
	big := append(bytes.Repeat([]byte(" "), MaxFileSize+1-len(doc)), doc...)
	_, err := Decode(context.Background(), big, "the state on standard input")
	if err == nil || !strings.Contains(err.Error(), "the state on standard input is 128.0 MiB, more than a state may be (128 MiB)") {
		t.Errorf("Decode = %v, want the size refused", err)
	}
	if _, err := Decode(context.Background(), big[1:], "the state on standard input"); err != nil {
		t.Errorf("a state of exactly %d bytes: %v", MaxFileSize, err)
	}
	path := filepath.Join(t.TempDir(), "neonform.state.json")
	if err := os.WriteFile(path, big, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewLocal(path).Read(context.Background()); err == nil || !strings.Contains(err.Error(), "at most 128 MiB") {
		t.Errorf("Read = %v, want the size refused", err)
	}
}
