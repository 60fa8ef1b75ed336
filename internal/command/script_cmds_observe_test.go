package command

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/state"
)

func cmdEmuFaults(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: emufaults SPEC")
	}
	f, err := emulator.ParseFaults(args[0])
	ts.Check(err)
	emulatorOf(ts).emu.SetFaults(f)
}

// The custom commands of the -lock-timeout and debug log scripts (registered
// in scriptCommands):
//
//	jsonlines FILE [TYPE...]
//	    checks that FILE ("stdout" too) is JSON lines as apply -json writes
//	    them: every line one object with a "type", an RFC 3339 "@timestamp"
//	    and an "@message"; with TYPEs, that the types are those, in order.
//
//	emufaults SPEC
//	    sets the faults the script's emulator injects from now on, as its
//	    -faults flag (SPEC "" for none).
//
//	holdlock STATEFILE DURATION
//	    takes the lock of the local state STATEFILE, as a run of user "ci"
//	    doing "apply" would, before the script's next line runs, and releases
//	    it DURATION later (or when the script ends): another run started
//	    meanwhile finds it held and, with -lock-timeout, waits for it.
func cmdHoldLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: holdlock STATEFILE DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	unlock, err := state.NewLocal(ts.MkAbs(args[0])).Lock(state.WithOperation(context.Background(), "apply"), "ci")
	ts.Check(err)
	t := time.AfterFunc(d, func() { unlock() })
	ts.Defer(func() {
		t.Stop()
		unlock() // does nothing if released already
	})
}

func cmdJSONLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: jsonlines FILE [TYPE...]")
	}
	text := ts.ReadFile(args[0])
	if !strings.HasSuffix(text, "\n") {
		ts.Fatalf("%s does not end with a newline: %q", args[0], text)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		var e struct {
			Type    string `json:"type"`
			Time    string `json:"@timestamp"`
			Message string `json:"@message"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			ts.Fatalf("%s: %q is not a JSON object: %v", args[0], line, err)
		}
		if _, err := time.Parse(time.RFC3339Nano, e.Time); err != nil || e.Type == "" || e.Message == "" {
			ts.Fatalf("%s: %q lacks a type, an RFC 3339 @timestamp or an @message", args[0], line)
		}
		types = append(types, e.Type)
	}
	if want := args[1:]; len(want) > 0 && !slices.Equal(types, want) {
		ts.Fatalf("%s: events %s, want %s", args[0], strings.Join(types, " "), strings.Join(want, " "))
	}
}
