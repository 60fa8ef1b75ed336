package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// CreateNew writes data to a new file at path (mode 0600), synced with its
// directory, failing with fs.ErrExist if anything is at path: a file, a
// device, a named pipe, a link even to nothing (O_EXCL does not follow
// links). A half-written file is removed so it does not block others. The
// state's lock file is made so.
func CreateNew(path string, data []byte) error {
	return CreateNewMode(path, data, 0o600)
}

// CreateNewMode is CreateNew with the new file's permissions (less the
// umask): the configuration files generate writes, which must never replace
// a file, are 0644, to be committed and read by others.
func CreateNewMode(path string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
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
