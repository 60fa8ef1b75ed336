package diff

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"slices"
	"strings"

	"github.com/neonform/neonform/api"
)

// RecordLive is what a plan keeps of a project's live endpoints: each one's
// id, whether it runs, and its managed values, in id order (the order the
// service lists them in does not matter).
func RecordLive(endpoints []api.Endpoint) []LiveEndpoint {
	out := make([]LiveEndpoint, len(endpoints))
	for i := range endpoints {
		out[i] = recordOne(&endpoints[i])
	}
	slices.SortFunc(out, byID)
	return out
}

// RecordSummaries is RecordLive of the endpoints as a plan reads them.
func RecordSummaries(endpoints []api.EndpointSummary) []LiveEndpoint {
	out := make([]LiveEndpoint, len(endpoints))
	for i := range endpoints {
		ep := endpoints[i].Endpoint()
		out[i] = recordOne(&ep)
	}
	slices.SortFunc(out, byID)
	return out
}

func recordOne(ep *api.Endpoint) LiveEndpoint {
	return LiveEndpoint{ID: ep.ID, CurrentState: ep.CurrentState, Values: LiveValues(ep)}
}

// byID orders recorded endpoints by id.
func byID(a, b LiveEndpoint) int { return strings.Compare(a.ID, b.ID) }

// LiveDigest is "sha256:<hex>" over the ids and the managed values of the
// endpoints, in id order.
func LiveDigest(endpoints []api.Endpoint) string { return digestOf(RecordLive(endpoints)) }

// digestedEndpoint is what of a recorded endpoint a plan depends on. It leaves
// out current_state on purpose: a compute going idle or waking up must not
// make a saved plan stale.
type digestedEndpoint struct {
	ID string `json:"id"`
	Values
}

// digestOf is the digest of recorded endpoints, which must be in id order.
func digestOf(eps []LiveEndpoint) string {
	d := make([]digestedEndpoint, len(eps))
	for i, e := range eps {
		d[i] = digestedEndpoint{ID: e.ID, Values: e.Values.settled()}
	}
	// The digest of json.Marshal's bytes, hashed as an Encoder writes them
	// from its own pooled buffer: Marshal's copy was 20 MB of allocations in
	// a plan of 10,000 projects.
	h := &unterminated{h: sha256.New()}
	_ = json.NewEncoder(h).Encode(d) // plain strings, numbers and maps: cannot fail
	return digestString(h.h.Sum(nil))
}

// unterminated hashes what is written to it but a newline at the very end:
// the one an Encoder adds after each value, which json.Marshal does not.
type unterminated struct {
	h    hash.Hash
	held bool // a newline was written last, and not yet hashed
}

func (u *unterminated) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if u.held {
		u.h.Write([]byte{'\n'})
		u.held = false
	}
	body := p
	if p[len(p)-1] == '\n' {
		body, u.held = p[:len(p)-1], true
	}
	u.h.Write(body)
	return len(p), nil
}

// ConfigDigest is "sha256:<hex>" over the configuration files, by name, so
// the same files give the same digest whatever order they were read in.
func ConfigDigest(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		// Length-prefixed so that moving bytes from one file to the next changes the digest.
		b, _ := json.Marshal([]any{n, len(files[n])})
		h.Write(b)
		h.Write(files[n])
	}
	return digestString(h.Sum(nil))
}

// FileDigests is "sha256:<hex>" of each file, by name: what a plan records
// so that apply can say which configuration file changed since.
func FileDigests(files map[string][]byte) map[string]string {
	out := make(map[string]string, len(files))
	for n, b := range files {
		out[n] = hashOf(b)
	}
	return out
}

// FileChanges are the files that differ between two sets of FileDigests.
type FileChanges struct {
	Changed, Added, Removed []string
}

// None reports that the files are the same.
func (c FileChanges) None() bool { return len(c.Changed)+len(c.Added)+len(c.Removed) == 0 }

// CompareFiles says which files differ from before to now, each list sorted.
func CompareFiles(before, now map[string]string) FileChanges {
	var c FileChanges
	for n, d := range now {
		switch old, ok := before[n]; {
		case !ok:
			c.Added = append(c.Added, n)
		case old != d:
			c.Changed = append(c.Changed, n)
		}
	}
	for n := range before {
		if _, ok := now[n]; !ok {
			c.Removed = append(c.Removed, n)
		}
	}
	slices.Sort(c.Changed)
	slices.Sort(c.Added)
	slices.Sort(c.Removed)
	return c
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return digestString(sum[:])
}

// digestString is how a plan writes a digest: "sha256:<hex>".
func digestString(sum []byte) string { return "sha256:" + hex.EncodeToString(sum) }
