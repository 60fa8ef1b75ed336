package diff

import (
	"crypto/sha256"
	"encoding/json"
	"testing"

	"github.com/neonform/neonform/internal/managed"
)

// digestOf hashes what json.Marshal makes of the endpoints, however the
// Encoder it streams through splits its writes.
func TestDigestIsOfMarshalBytes(t *testing.T) {
	eps := []LiveEndpoint{
		{ID: "ep-a", CurrentState: "idle", Values: Values{Type: "read_write", BranchID: "br-a", Applied: managed.Applied{Name: "primary", MinCU: 0.25, MaxCU: 2, PgSettings: map[string]string{"work_mem": "64MB\n"}}}},
		{ID: "ep-b", CurrentState: "active", Values: Values{Type: "read_only", BranchID: "br-a", Applied: managed.Applied{MinCU: 1, MaxCU: 1}}},
	}
	d := []digestedEndpoint{{ID: "ep-a", Values: eps[0].Values}, {ID: "ep-b", Values: eps[1].Values}}
	d[1].PgSettings = map[string]string{}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := digestOf(eps), hashOf(b); got != want {
		t.Errorf("digestOf = %s, want the digest of json.Marshal's bytes %s", got, want)
	}
	// Written a byte at a time, a newline inside the value is hashed and
	// only the last one is not.
	u := &unterminated{h: sha256.New()}
	for _, c := range append(b, '\n') {
		u.Write([]byte{c})
	}
	if got := digestString(u.h.Sum(nil)); got != hashOf(b) {
		t.Errorf("written a byte at a time: %s, want %s", got, hashOf(b))
	}
}
