package bounded

import (
	"errors"
	"os"
	"path/filepath"
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
