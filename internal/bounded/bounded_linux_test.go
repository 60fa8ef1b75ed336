package bounded

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// bytesRead is what this process has read so far through read calls
// (rchar in /proc/self/io).
func bytesRead(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/io")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no rchar in /proc/self/io")
	return 0
}

// A file whose size is over the limit is refused before any of it is read:
// a sparse file of 10 GiB read with a limit of 64 MiB reads nothing of it.
// A file that says less than it holds is still read up to the limit only.
func TestAFileLargerThanItsLimitIsRefusedBeforeReading(t *testing.T) {
	huge := filepath.Join(t.TempDir(), "huge")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	const limit = 64 << 20
	before := bytesRead(t)
	_, err = Read(huge, limit)
	read := bytesRead(t) - before
	var tooLarge *TooLargeError
	if !errors.As(err, &tooLarge) || !strings.HasSuffix(err.Error(), "is larger than 64 MiB (it is 10240.0 MiB)") {
		t.Errorf("Read of a 10 GiB file = %v", err)
	}
	if read > 1<<20 {
		t.Errorf("Read read %d bytes of a file it refused for its size", read)
	}
}
