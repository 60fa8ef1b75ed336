package config_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/neonform/neonform/config"
)

// lookingCountdown is a context done from its nth look on (never, when n
// is 0) that counts the looks of the loader between files and phases.
type lookingCountdown struct {
	context.Context
	looks, n, between int
}

func (c *lookingCountdown) Err() error {
	c.looks++
	pcs := make([]uintptr, 1)
	if runtime.Callers(2, pcs) == 1 {
		if f, _ := runtime.CallersFrames(pcs).Next(); strings.HasSuffix(f.Function, "config.(*loader).stopBefore") {
			c.between++
		}
	}
	if c.n > 0 && c.looks >= c.n {
		return context.Canceled
	}
	return nil
}

// A configuration of several files is looked at for an interrupt before
// each file is parsed, and between the phases of the load, not only while
// expressions are evaluated: parsing a large file takes about a second
// (docs/apply.md, Interrupting). Cancelled at any look, the load stops with
// one error, "Interrupted", and reads no more.
func TestLoadStopsBetweenFilesAndPhases(t *testing.T) {
	files := map[string][]byte{}
	for i := range 4 {
		files[fmt.Sprintf("p%d.hcl", i)] = fmt.Appendf(nil, "project \"p%d\" {\n  id = \"proj-%d\"\n  branch \"main\" {\n    compute \"c\" {}\n  }\n}\n", i, i)
	}
	never := &lookingCountdown{Context: context.Background()}
	if _, diags := config.LoadSources("dir", files, config.Options{Context: never}); diags.HasErrors() {
		t.Fatal(diags)
	}
	// Four files read twice (their shape, then their projects) and a look
	// before the evaluation.
	if never.between < 9 {
		t.Fatalf("the load looked at its context %d times between files and phases, want 9 or more", never.between)
	}
	for n := 1; n <= never.looks; n++ {
		ctx := &lookingCountdown{Context: context.Background(), n: n}
		_, diags := config.LoadSources("dir", files, config.Options{Context: ctx})
		if len(diags) != 1 || diags[0].Summary != "Interrupted" {
			t.Fatalf("cancelled at look %d of %d: %v, want one error, Interrupted", n, never.looks, diags)
		}
	}
}

// cancelOnDone is a context cancelled the first time its Done is asked
// for: by the first call that waits on it, which in a load is the parse
// of a file (parseConfig).
type cancelOnDone struct {
	context.Context
	cancel context.CancelFunc
	once   sync.Once
}

func (c *cancelOnDone) Done() <-chan struct{} {
	c.once.Do(c.cancel)
	return c.Context.Done()
}

// An interrupt during the parse of a large file stops the load there,
// without waiting for the parse, nor leaving the file to be parsed again
// to print the diagnostic: hclsyntax looks at no context, and one
// file at the 8 MiB limit takes seconds of CPU. The load returns the one
// error "Interrupted" while the parse it gave up is still running, or yet
// to start (its goroutine, started by internal/abandon, is there when the
// load has returned: the load did not wait for it to end).
func TestAnInterruptDoesNotWaitForAParse(t *testing.T) {
	var src strings.Builder
	for p := 0; src.Len() < 4<<20; p++ {
		fmt.Fprintf(&src, "project \"p%d\" {\n  id = \"project-%08d\"\n  branch \"main\" {\n    compute \"primary\" {\n      min_cu = 0.25\n      max_cu = 1\n      name   = \"a compute with a name long enough to keep the tokens of a large file within the limit\"\n    }\n  }\n}\n", p, p)
	}
	files := map[string][]byte{"big.hcl": []byte(src.String())}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, diags := config.LoadSources("dir", files, config.Options{Context: &cancelOnDone{Context: ctx, cancel: cancel}})
	stacks := make([]byte, 1<<20)
	stacks = stacks[:runtime.Stack(stacks, true)]
	if len(diags) != 1 || diags[0].Summary != "Interrupted" {
		t.Fatalf("interrupted while parsing: %v, want one error, Interrupted", diags)
	}
	// The first stack is this goroutine's: "goroutine 7 [running]:".
	self, _, _ := strings.Cut(strings.TrimPrefix(string(stacks), "goroutine "), " ")
	if !strings.Contains(string(stacks), "created by github.com/neonform/neonform/internal/abandon.Call[...] in goroutine "+self+"\n") {
		t.Errorf("the load returned after the parse had ended: it waited for it\n%s", stacks)
	}
	// The diagnostic's printer parses a file that has no tree, to name the
	// blocks around the mistake: it must not parse this one again.
	if f := cfg.Files[filepath.Join("dir", "big.hcl")]; f == nil || f.Body == nil || len(f.Bytes) != len(files["big.hcl"]) {
		t.Errorf("the interrupted file is not among the configuration's files with a tree (empty) and its bytes: %v", f)
	}
}
