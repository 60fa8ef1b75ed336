package command

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/english"
)

// How the state commands tell DIR, the configuration directory, from their
// own arguments. DIR comes last and is optional, as in every command; where
// the number of arguments cannot say whether it is there, the kind of the
// last one does (docs/state.md, "Looking at and editing the state"):
//
//   - a fixed number of arguments (state show ADDR, state mv FROM TO): one
//     more is DIR;
//   - state rm ADDR...: the last is DIR when it is not a compute address (an
//     address always has three parts: project.branch.compute), so a
//     directory named like one is written ./NAME;
//   - state list [ADDR-PREFIX]: a lone argument is DIR when it is an
//     existing directory (as state list DIR always read), else the prefix.

// stateArgs is the shape of a state subcommand's arguments.
type stateArgs struct {
	// usage is how the usage line writes them, DIR included.
	usage string
	split func(args []string) (own []string, dir string, err error)
}

// fixedArgs is names (space-separated, "" for none) and an optional DIR.
func fixedArgs(names string) stateArgs {
	n := len(strings.Fields(names))
	return stateArgs{usage: strings.TrimSpace(names + " [DIR]"), split: func(args []string) ([]string, string, error) {
		switch len(args) {
		case n:
			return args, "", nil
		case n + 1:
			return args[:n], args[n], nil
		}
		return nil, "", fmt.Errorf("takes %s (got %s)", strings.TrimSpace(names+" [DIR]"), english.Plural(len(args), "argument", "arguments"))
	}}
}

// addressesArgs is state rm's: one or more addresses (of computes, or a
// project or branch for every compute under it), and DIR: the last
// argument, when it is a directory and not a compute address.
var addressesArgs = stateArgs{usage: "ADDR... [DIR]", split: func(args []string) ([]string, string, error) {
	if len(args) == 0 {
		return nil, "", errors.New("takes one or more addresses, and optionally DIR (got none)")
	}
	last := args[len(args)-1]
	if _, _, _, err := config.ParseAddress(last); err == nil || len(args) == 1 {
		return args, "", nil // a lone argument is an address, checked as one
	}
	if isDir(last) {
		return args[:len(args)-1], last, nil
	}
	if _, err := config.ParsePartialAddress(last); err != nil {
		return nil, "", fmt.Errorf("takes addresses and then optionally DIR, and %v; nor is it a directory", err)
	}
	return args, "", nil
}}

// listArgs is state list's: an optional address prefix, and DIR.
var listArgs = stateArgs{usage: "[ADDR-PREFIX] [DIR]", split: func(args []string) ([]string, string, error) {
	switch {
	case len(args) == 0:
		return nil, "", nil
	case len(args) == 1 && isDir(args[0]):
		return nil, args[0], nil
	case len(args) <= 2:
		if _, err := config.ParsePartialAddress(args[0]); err != nil {
			return nil, "", fmt.Errorf("takes an address prefix (a project, a branch or a compute) and optionally DIR, and %v; nor is it a directory", err)
		}
		return args[:1], strings.Join(args[1:], ""), nil
	}
	return nil, "", fmt.Errorf("takes [ADDR-PREFIX] [DIR] (got %d arguments)", len(args))
}}

// isDir reports whether path is an existing directory (or a link to one).
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
