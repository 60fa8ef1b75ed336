//go:build unix

package bounded

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Devices and named pipes never end: they are refused without reading.
func TestReadRefusesDevicesAndPipes(t *testing.T) {
	var notRegular *NotRegularError
	if _, err := Read("/dev/zero", 1<<20); !errors.As(err, &notRegular) || !strings.Contains(err.Error(), "a character device") {
		t.Errorf("Read of /dev/zero = %v", err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// No writer: a blocking open would wait for ever.
	if _, err := Read(fifo, 10); !errors.As(err, &notRegular) || !strings.Contains(err.Error(), "a named pipe") {
		t.Errorf("Read of a named pipe = %v", err)
	}
}
