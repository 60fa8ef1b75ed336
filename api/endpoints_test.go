package api

import (
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"
)

// A listed project's endpoints are what the service answered, in a slice of
// their number, sharing the strings they repeat.
func TestCompactListKeepsTheEndpoints(t *testing.T) {
	body := []byte(`{"endpoints": [
		{"id": "ep-a", "project_id": "p-1", "branch_id": "br-1", "type": "read_write", "region_id": "aws-us-east-2", "current_state": "idle", "host": "ep-a.example"},
		{"id": "ep-b", "project_id": "p-1", "branch_id": "br-1", "type": "read_only", "region_id": "aws-us-east-2", "current_state": "active", "host": "ep-b.example", "settings": {"pg_settings": {"work_mem": "4MB"}}},
		{"id": "ep-c", "project_id": "p-1", "branch_id": "br-2", "type": "read_only", "region_id": "aws-us-east-2", "current_state": "active", "host": "ep-c.example"}
	]}`)
	var decoded EndpointsResponse
	if err := json.Unmarshal(body, &decoded); err != nil {
		t.Fatal(err)
	}
	want := append([]Endpoint(nil), decoded.Endpoints...)
	got := compactList(decoded.Endpoints)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("compactList changed the endpoints:\n got %+v\nwant %+v", got, want)
	}
	if len(got) != cap(got) {
		t.Errorf("%d endpoints in room for %d", len(got), cap(got))
	}
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	if !same(got[0].ProjectID, got[2].ProjectID) || !same(string(got[1].Type), string(got[2].Type)) || !same(got[0].RegionID, got[1].RegionID) {
		t.Errorf("repeated strings are still copies")
	}
	if compactList(nil) != nil {
		t.Errorf("no list is still no list")
	}
}
