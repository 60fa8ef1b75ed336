package diff

import "testing"

// The effects docs/architecture.md's "What each change does" lists, read
// back through ChangeEffect: a change of the table moves this test.
func TestChangeEffect(t *testing.T) {
	want := map[string]Disruption{
		"type": Recreate, "branch": Suspend, "min_cu": Restart, "max_cu": Restart,
		"suspend_timeout": None, "pg_settings": Restart, "disabled": Suspend, "name": None,
	}
	for _, name := range AttributeNames() {
		got, ok := ChangeEffect(name)
		if !ok || got != want[name] {
			t.Errorf("ChangeEffect(%q) = %v, %v; want %v", name, got, ok, want[name])
		}
	}
	if _, ok := ChangeEffect("size"); ok {
		t.Error(`ChangeEffect("size"): size is an argument, not a plan attribute`)
	}
}
