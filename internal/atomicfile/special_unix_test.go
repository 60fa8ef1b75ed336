//go:build unix

package atomicfile

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// addSpecialFiles adds a named pipe, a socket and a link to /dev/null to
// dir, with the refusals they get. /dev/null itself is never a write's path:
// a test run as root that got it wrong would replace the system's.
func addSpecialFiles(t *testing.T, dir string, cases map[string]string) map[string]string {
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o600))
	cases["fifo.json"] = "fifo.json is a named pipe; -out writes only regular files"
	ln, err := net.Listen("unix", filepath.Join(dir, "sock.json"))
	must(t, err)
	t.Cleanup(func() { ln.Close() })
	cases["sock.json"] = "sock.json is a socket; -out writes only regular files"
	must(t, os.Symlink("/dev/null", filepath.Join(dir, "null.json")))
	cases["null.json"] = "null.json is a symbolic link to /dev/null, a character device; -out writes only regular files"
	t.Cleanup(func() {
		if info, err := os.Stat("/dev/null"); err != nil || info.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("/dev/null is no longer a character device: %v %v", info, err)
		}
	})
	return cases
}
