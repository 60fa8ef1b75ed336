package state

import (
	"testing"
)

// Each entry is digested in its own project, computes and defaults alike;
// a change to any of its fields changes its digest, and only its own.
func TestEntryDigests(t *testing.T) {
	s := New()
	s.Computes["a.main.x"] = &Compute{EndpointID: "ep-1", ProjectID: "p-a", Applied: Attributes{MaxCU: 1, PgSettings: map[string]string{"a": "1", "b": "2"}}}
	s.Computes["a.main.y"] = &Compute{EndpointID: "ep-2", ProjectID: "p-a"}
	s.Computes["b.main.z"] = &Compute{EndpointID: "ep-3", ProjectID: "p-b"}
	s.Defaults = map[string]*Defaults{"a.defaults": {ProjectID: "p-a"}}
	got := s.EntryDigests(map[string]bool{"p-a": true, "p-c": true})
	if len(got) != 2 || len(got["p-a"]) != 3 || got["p-c"] == nil || len(got["p-c"]) != 0 || got["p-b"] != nil {
		t.Fatalf("got %v", got)
	}
	again := s.Clone().EntryDigests(map[string]bool{"p-a": true})
	for addr, d := range got["p-a"] {
		if again["p-a"][addr] != d || len(d) != len("sha256:")+64 {
			t.Errorf("%s: %s, then %s", addr, d, again["p-a"][addr])
		}
	}
	for _, edit := range []func(*State){
		func(s *State) { s.Computes["a.main.x"].Applied.PgSettings["b"] = "3" },
		func(s *State) { s.Computes["a.main.x"].Host = "h" },
		func(s *State) { s.Computes["a.main.x"].PreventDestroy = true },
		func(s *State) { s.Computes["a.main.x"].Sensitive = []string{"max_cu"} },
	} {
		c := s.Clone()
		edit(c)
		now := c.EntryDigests(map[string]bool{"p-a": true})["p-a"]
		if now["a.main.x"] == got["p-a"]["a.main.x"] || now["a.main.y"] != got["p-a"]["a.main.y"] {
			t.Errorf("an edit of a.main.x: %v, was %v", now, got["p-a"])
		}
	}
}

// BenchmarkEntryDigests100000Computes is what a plan of every project of a
// state of 100,000 computes (10,000 projects) spends on their digests:
//
//	go test ./state/ -run '^$' -bench BenchmarkEntryDigests -benchmem
func BenchmarkEntryDigests100000Computes(b *testing.B) {
	s := bigState(100000)
	projects := map[string]bool{}
	for _, c := range s.Computes {
		projects[c.ProjectID] = true
	}
	b.ResetTimer()
	for b.Loop() {
		s.EntryDigests(projects)
	}
}
