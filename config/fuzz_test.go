package config_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/sizing"
)

// addSeeds adds every configuration file the project ships as a starting point,
// so the fuzzer mutates real syntax rather than random bytes.
func addSeeds(f *testing.F) {
	for _, pattern := range []string{
		"../testdata/config/invalid/*.hcl",
		"../testdata/config/valid/*/*.hcl",
		"../examples/*/*.hcl",
	} {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
}

// FuzzLoad loads arbitrary bytes as a configuration file. It must never panic,
// every diagnostic must say something, and whatever loads without errors must
// obey the rules the checks promise, since the planner relies on them.
//
//	go test ./config/ -run '^$' -fuzz FuzzLoad -fuzztime 2m
func FuzzLoad(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, diags := config.LoadSources("", map[string][]byte{"main.hcl": src},
			config.Options{Environ: []string{"NEONFORM_VAR_cu=2", "HOME=/home/x"}})
		if cfg == nil || cfg.Files == nil {
			t.Fatal("LoadSources returned no model")
		}
		for _, d := range diags {
			if d.Summary == "" {
				t.Errorf("diagnostic without a summary: %#v", d)
			}
		}
		if diags.HasErrors() {
			return
		}
		for _, p := range cfg.Projects {
			for _, b := range p.Branches {
				readWrite := 0
				for _, c := range b.Computes {
					if _, _, _, err := config.ParseAddress(c.Address); err != nil {
						t.Errorf("accepted compute with a bad address: %v", err)
					}
					if err := sizing.CheckRange(c.MinCU, c.MaxCU, cfg.Settings.AccountTier); err != nil {
						t.Errorf("accepted %s with a size the service refuses: %v", c.Address, err)
					}
					if c.Type == config.ReadWrite {
						readWrite++
					}
					if c.PgSettings == nil {
						t.Errorf("%s: PgSettings is nil", c.Address)
					}
				}
				if readWrite > 1 {
					t.Errorf("accepted branch %s.%s with %d read_write computes", p.Label, b.Label, readWrite)
				}
			}
		}
	})
}

// FuzzFormat formats arbitrary bytes: never a panic, and formatting what fmt
// wrote changes nothing (running fmt twice changes nothing the second time).
//
//	go test ./config/ -run '^$' -fuzz FuzzFormat -fuzztime 1m
func FuzzFormat(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		once, diags := config.Format(src, "main.hcl")
		if diags.HasErrors() {
			if once != nil {
				t.Error("Format returned output for a file it refused")
			}
			return
		}
		twice, diags := config.Format(once, "main.hcl")
		if diags.HasErrors() {
			t.Fatalf("the formatted file does not parse: %s\ninput:\n%q\nformatted:\n%q", diags.String(), src, once)
		}
		if !bytes.Equal(once, twice) {
			t.Errorf("formatting twice changed the file:\ninput:\n%q\nonce:\n%q\ntwice:\n%q", src, once, twice)
		}
	})
}
