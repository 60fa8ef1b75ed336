package main

import (
	"context"
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
