package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/neonform/neonform/internal/atomicfile"
)

// saver lets concurrent changes share a write of the data file: a change is on
// disk when save returns, as before, but changes that arrive while a write runs
// are all covered by the next one, so parallel mutations of a large world cost
// one or two writes, not one each (docs/PERFORMANCE.md).
type saver struct {
	mu      sync.Mutex
	done    *sync.Cond // signalled when a write ends
	asked   uint64     // changes that asked to be saved, in order
	written uint64     // changes covered by the last successful write
	busy    bool       // a write runs
}

// save writes the world to the data file, if there is one, and returns once a
// write that began after the caller's change has succeeded. A failed write
// returns its error to the caller that ran it; the others try again.
func (e *Emulator) save() error {
	if e.opts.DataFile == "" {
		return nil
	}
	s := &e.saves
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked++
	mine := s.asked
	for s.written < mine {
		if s.busy {
			s.done.Wait()
			continue
		}
		s.busy = true
		upto := s.asked // every change up to here happened before this snapshot
		s.mu.Unlock()
		err := e.writeWorld()
		s.mu.Lock()
		s.busy = false
		if err == nil && upto > s.written {
			s.written = upto
		}
		s.done.Broadcast()
		if err != nil {
			return err
		}
	}
	return nil
}

func (e *Emulator) writeWorld() error {
	b, err := encodeWorld(e.w.snapshot())
	if err != nil {
		return fmt.Errorf("emulator: encoding the world: %w", err)
	}
	return writeFileAtomic(e.opts.DataFile, b)
}

// encodeWorld writes the world file one record per line: a person can still read
// and diff it, and it takes half the time of indenting every field, which on a
// world of 10,000 endpoints is most of the cost of a change.
func encodeWorld(doc worldDoc) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"format_version\": %d,\n", doc.FormatVersion)
	err := writeRecords(&b, "  ", "users", doc.Users, ",")
	if err == nil {
		err = writeRecords(&b, "  ", "organizations", doc.Organizations, ",")
	}
	if err == nil {
		err = writeRecords(&b, "  ", "api_keys", doc.APIKeys, ",")
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "  \"next_key_id\": %d,\n  \"projects\": [", doc.NextKeyID)
	for i, p := range doc.Projects {
		head, err := json.Marshal(p.projectHead)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(head[:len(head)-1]) // without its closing brace: the lists follow
		b.WriteString(",\n")
		err = writeRecords(&b, "      ", "branches", p.Branches, ",")
		if err == nil {
			err = writeRecords(&b, "      ", "endpoints", p.Endpoints, ",")
		}
		if err == nil {
			err = writeRecords(&b, "      ", "operations", p.Operations, "")
		}
		if err != nil {
			return nil, err
		}
		b.WriteString("    }")
	}
	if len(doc.Projects) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes(), nil
}

// writeRecords writes `"name": [` and one JSON record per line, then `]` and sep.
func writeRecords[T any](b *bytes.Buffer, indent, name string, items []T, sep string) error {
	fmt.Fprintf(b, "%s%q: [", indent, name)
	for i, item := range items {
		line, err := json.Marshal(item)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n" + indent + "  ")
		b.Write(line)
	}
	if len(items) > 0 {
		b.WriteString("\n" + indent)
	}
	b.WriteString("]" + sep + "\n")
	return nil
}

// writeFileAtomic writes the world file so that a crash leaves either the old
// or the new content (internal/atomicfile), mode 0600: the file holds key
// hashes. A device, a named pipe or a link to one at path is refused, not
// replaced.
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteBytes(path, data, worldFileOptions); err != nil {
		return fmt.Errorf("emulator: writing the world file: %w", err)
	}
	return nil
}

// worldFileOptions: the world is kept only in a regular file; the emulator
// read it (or found none) before it writes it, so any regular file may be
// replaced.
var worldFileOptions = atomicfile.Options{Rule: "the emulator keeps its world only in a regular file: choose another file for -data"}
