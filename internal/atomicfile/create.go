package atomicfile

import (
	"os"
	"path/filepath"
)

// CreateNew writes data to a new file at path (mode 0600), synced with its
// directory, failing with fs.ErrExist if anything is at path: a file, a
// device, a named pipe, a link even to nothing (O_EXCL does not follow
// links). A half-written file is removed so it does not block others. The
// state's lock file is made so; so are the files generate writes, which
// must never replace one.
func CreateNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = SyncDir(filepath.Dir(path))
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
