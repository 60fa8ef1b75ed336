package bounded

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadTakesRegularFilesUpToTheLimit(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("12345"), 0o600)
	if got, err := Read(small, 5); err != nil || string(got) != "12345" {
		t.Errorf("Read of a file at the limit = %q, %v", got, err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(small, link)
	if got, err := Read(link, 5); err != nil || string(got) != "12345" {
		t.Errorf("Read through a symbolic link = %q, %v", got, err)
	}

	var tooLarge *TooLargeError
	if _, err := Read(small, 4); !errors.As(err, &tooLarge) || !Refused(err) || err.Error() != small+" is larger than 0 MiB" {
		t.Errorf("Read past the limit = %v", err)
	}
	// A sparse file of a gigabyte: refused after reading one byte past the
	// limit, with its size.
	huge := filepath.Join(dir, "huge")
	f, _ := os.Create(huge)
	f.Truncate(1 << 30)
	f.Close()
	if _, err := Read(huge, 1<<20); !errors.As(err, &tooLarge) || !strings.HasSuffix(err.Error(), "is larger than 1 MiB (it is 1024.0 MiB)") {
		t.Errorf("Read of a huge file = %v", err)
	}

	var notRegular *NotRegularError
	if _, err := Read(dir, 1<<20); !errors.As(err, &notRegular) || err.Error() != dir+" is a directory, not a regular file" {
		t.Errorf("Read of a directory = %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) || Refused(err) {
		t.Errorf("Read of a missing file = %v", err)
	}
}

// A file is read into room for its size, not grown by doubling: a state
// file of 29 MB cost 83 MB of allocations that way.
func TestReadAllocatesAboutTheFileSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "file")
	os.WriteFile(path, make([]byte, 1<<20), 0o600)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Read(path, 8<<20); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20+64<<10 {
		t.Errorf("Read of a 1 MiB file allocated %d bytes; want about 1 MiB", got)
	}
}
