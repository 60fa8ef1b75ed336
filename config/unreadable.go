package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/internal/bounded"
)

// unreadable is the error for a configuration or variable file (what:
// "Configuration file", "Variable file") that cannot be read: what it is,
// and how to fix it. A configuration file is never skipped instead: a
// moved block in a file left out would turn a rename into a delete and a
// create (docs/configuration.md, "Checking and formatting").
func unreadable(path, what string, err error) *hcl.Diagnostic {
	summary, detail, fix := "Cannot read "+lower(what), "", ""
	var notRegular *bounded.NotRegularError
	switch {
	case errors.As(err, &notRegular):
		summary = what + " is not a regular file"
		detail = fmt.Sprintf("%s is %s, not a regular file: neonform reads configuration and variable files only from regular files (or symbolic links to them), so that reading always ends.",
			path, bounded.Kind(notRegular.Mode))
		if notRegular.Mode.IsDir() {
			fix = "rename the directory so that its name does not end in .hcl"
		} else {
			fix = "replace it with the file it stands for"
		}
	case errors.Is(err, fs.ErrNotExist) && isLink(path):
		summary = what + " is a broken link"
		target, _ := os.Readlink(path)
		detail = fmt.Sprintf("%s is a symbolic link to %s, which does not exist.", path, target)
		fix = "point the link at the file (a relative target is read from the link's directory), or remove the link"
	case errors.Is(err, syscall.ELOOP):
		summary = what + " is a broken link"
		detail = fmt.Sprintf("%s is a symbolic link that leads back to itself.", path)
		fix = "point the link at the file, or remove the link"
	case errors.Is(err, fs.ErrPermission):
		detail = fmt.Sprintf("%s cannot be read: permission denied.", path)
		fix = fmt.Sprintf("let your user read it (chmod u+r %s)", path)
	default:
		detail = fmt.Sprintf("%v.", err)
		fix = "check the path and the file's permissions"
	}
	if what == configurationFile {
		detail += fmt.Sprintf(" neonform reads every *.hcl file of the directory, and checks or plans nothing without one of them: %s, or move it out of the directory.", fix)
	} else if !errors.As(err, &notRegular) {
		detail += " " + upper(fix) + "."
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

// configurationFile names the files of the configuration's directory in messages.
const configurationFile = "Configuration file"

func isLink(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

func upper(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-0x20) + s[1:]
}
