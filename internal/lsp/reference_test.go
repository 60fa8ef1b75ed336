package lsp

import (
	"testing"

	"github.com/neonform/neonform/config"
)

// Every block and argument neonform reads has its words in the
// configuration reference, which hover shows.
func TestEveryNameIsDocumented(t *testing.T) {
	paths := [][]string{nil}
	for len(paths) > 0 {
		path := paths[0]
		paths = paths[1:]
		args, blocks, ok := config.BlockNames(path)
		if !ok {
			t.Fatalf("no schema for %v", path)
		}
		for _, a := range args {
			if d, ok := aboutArgument(path, a); !ok || d.meaning == "" {
				t.Errorf("%v: argument %s has no row in docs/configuration.md's reference", path, a)
			}
		}
		for _, b := range blocks {
			if aboutBlock(b.Type) == "" {
				t.Errorf("%v: block %s has no words in docs/configuration.md's reference", path, b.Type)
			}
			if b.Type != "locals" {
				paths = append(paths, append(append([]string{}, path...), b.Type))
			}
		}
	}
}
