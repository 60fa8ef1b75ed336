package state

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadState decodes arbitrary bytes as a state file, as Local.Read and
// the Postgres backend do. It must never panic; an error names where the
// state came from; and a state that decodes is valid, and encodes to what
// decodes and encodes again to the same bytes, so that apply's write after
// every step cannot turn it into one the next run refuses. Seeds:
// testdata/states (one of them of format 1, read and written back as this
// format: two_computes_format1.json).
//
//	go test ./state/ -run '^$' -fuzz FuzzReadState -fuzztime 1m
func FuzzReadState(f *testing.F) {
	for _, data := range stateSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const source = "state file fuzz.json"
		s, err := decode(context.Background(), data, source, "fix it")
		if err != nil {
			if !strings.Contains(err.Error(), source) {
				t.Errorf("the error does not name the file: %v", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("decode accepted a state that is not valid: %v", err)
		}
		once, err := encode(s)
		if err != nil {
			t.Fatalf("a state that was read cannot be encoded: %v", err)
		}
		again, err := decode(context.Background(), once, "the encoded state", "")
		if err != nil {
			t.Fatalf("an encoded state does not decode: %v\n%s", err, once)
		}
		twice, err := encode(again)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once, twice) {
			t.Errorf("decoding and encoding again changed the state:\n%s\nvs\n%s", once, twice)
		}
	})
}

func stateSeeds(tb testing.TB) map[string][]byte {
	paths, err := filepath.Glob("testdata/states/*.json")
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no seeds in testdata/states: %v", err)
	}
	seeds := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		seeds[filepath.Base(p)] = b
	}
	return seeds
}

// TestReadStateSeeds reads the fuzz seeds through Local.Read, as apply
// does: the valid ones read (one of this format, one of format 1 that it
// migrates), the others are refused naming the file, and
// no file is changed by reading it.
func TestReadStateSeeds(t *testing.T) {
	for name, data := range stateSeeds(t) {
		path := filepath.Join(t.TempDir(), "neonform.state.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := NewLocal(path).Read(context.Background())
		if valid := name == "two_computes.json" || name == "two_computes_format1.json"; (err == nil) != valid || err != nil && !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", name, err)
		}
		if name == "two_computes.json" && s.FormatVersion != FormatVersion {
			t.Errorf("%s is of format %d, not this neonform's %d: the fuzzer would start from a state it migrates (two_computes_format1.json is that one); make it again with apply on the sandbox", name, s.FormatVersion, FormatVersion)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
			t.Errorf("%s: reading changed the file", name)
		}
	}
}
