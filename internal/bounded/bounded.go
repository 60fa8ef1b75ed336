// Package bounded reads files that neonform is handed (configuration and
// variable files, plan files, state files) so that no file, however odd, can
// make a command hang or run out of memory: only a regular file, or a
// symbolic link to one, and no more than a given number of bytes of it. A
// device such as /dev/zero, a named pipe or a directory is refused without
// reading.
package bounded

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// NotRegularError is a path that is not a regular file.
type NotRegularError struct {
	Path string
	Mode os.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Kind(e.Mode))
}

// TooLargeError is a file larger than the limit it was read with.
type TooLargeError struct {
	Path  string
	Limit int
	// Size is the file's size as the file system gives it, or 0 when it does
	// not know (files in /proc say 0).
	Size int64
}

func (e *TooLargeError) Error() string {
	s := fmt.Sprintf("%s is larger than %s", e.Path, MiB(e.Limit))
	if e.Size > int64(e.Limit)+1 { // one byte over says nothing a person can see
		s += fmt.Sprintf(" (it is %.1f MiB)", float64(e.Size)/(1<<20))
	}
	return s
}

// Read returns the contents of the regular file at path, which must hold at
// most limit bytes. Other errors are those of opening and reading the file
// (*fs.PathError).
func Read(path string, limit int) ([]byte, error) {
	f, info, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > int64(limit) {
		// Refused on what Stat says, before reading: a sparse file of 10 GB
		// cost 256 MiB of reading and memory before its refusal.
		return nil, &TooLargeError{Path: path, Limit: limit, Size: info.Size()}
	}
	// Read one byte past the limit: the size Stat gives can be wrong (files
	// in /proc say 0) or change while the file is read. It is still the
	// likely size: room for it and for the read that finds the end (ReadFrom
	// wants bytes.MinRead free), rather than io.ReadAll's doubling, which
	// allocates about three times a large file (a state of 100,000 computes
	// is 29 MB).
	buf := bytes.NewBuffer(make([]byte, 0, min(max(info.Size(), 0), int64(limit))+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, int64(limit)+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if len(data) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit, Size: info.Size()}
	}
	return data, nil
}

// Open opens the regular file at path for reading, and returns what Stat
// says of the file opened: a *NotRegularError for anything else, checked on
// the open file, so a path swapped after a check is caught too. The open is
// non-blocking, so that opening a named pipe does not wait for a writer; it
// changes nothing for a regular file. The caller bounds what it reads.
func Open(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return f, info, nil
}

// Refused reports whether err is a file that Read refused for what it is
// (not a regular file, or too large) rather than one it could not open.
func Refused(err error) bool {
	var n *NotRegularError
	var t *TooLargeError
	return errors.As(err, &n) || errors.As(err, &t)
}

// Kind names what a file that is not regular is: "a directory", "a named pipe".
func Kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// MiB prints a size limit: "8 MiB".
func MiB(n int) string { return fmt.Sprintf("%d MiB", n>>20) }
