package managed

import "testing"

func TestEffectiveSuspend(t *testing.T) {
	for _, tt := range []struct{ in, want int64 }{{0, 300}, {300, 300}, {-1, -1}, {60, 60}, {604800, 604800}} {
		if got := EffectiveSuspend(tt.in); got != tt.want {
			t.Errorf("EffectiveSuspend(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestSettingsAreNeverNil(t *testing.T) {
	if m := Settings(nil); m == nil || len(m) != 0 {
		t.Errorf("Settings(nil) = %#v, want an empty map", m)
	}
	m := map[string]string{"work_mem": "64MB"}
	if got := Settings(m); len(got) != 1 || got["work_mem"] != "64MB" {
		t.Errorf("Settings(m) = %#v, want m", got)
	}
}
