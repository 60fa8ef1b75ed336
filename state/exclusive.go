package state

// CreateExclusive writes data to a new file at path (mode 0600), synced with
// its directory, failing with fs.ErrExist if the file exists; a half-written
// file is removed. The lock file is made so; so are the files generate
// writes, which must never replace one.
func CreateExclusive(path string, data []byte) error { return createExclusive(path, data) }
