package main

import "github.com/rogpeppe/go-internal/testscript"

// scriptCommands are the custom commands available in testdata/script/*.txtar.
func scriptCommands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){}
}
