package config

import (
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

// A file that cannot be read for its permissions (tests may run as root,
// who reads any file, so the error is made here): named, with the fix.
func TestUnreadableForPermissions(t *testing.T) {
	err := &fs.PathError{Op: "open", Path: "conf/moved.hcl", Err: syscall.EACCES}
	d := unreadable("conf/moved.hcl", configurationFile, err)
	want := "conf/moved.hcl cannot be read: permission denied. neonform reads every *.hcl file of the directory, and checks or plans nothing without one of them: let your user read it (chmod u+r conf/moved.hcl), or move it out of the directory."
	if d.Summary != "Cannot read configuration file" || d.Detail != want {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
	d = unreadable("values.vars", "Variable file", &fs.PathError{Op: "open", Path: "values.vars", Err: syscall.EACCES})
	if d.Summary != "Cannot read variable file" || !strings.HasSuffix(d.Detail, "permission denied. Let your user read it (chmod u+r values.vars).") {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
}
