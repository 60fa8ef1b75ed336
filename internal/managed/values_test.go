package managed

import (
	"encoding/json"
	"testing"
)

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

// The nil-versus-empty rule of settings, said once: a plan and a reading
// hold them never nil, each its own map; a state entry holds none as nil,
// which it leaves out of its JSON.
func TestSettingsAreHeldOneWay(t *testing.T) {
	if v := (Values{}).Settled(); v.PgSettings == nil {
		t.Error("Settled leaves settings nil")
	}
	shared := map[string]string{"work_mem": "64MB"}
	own := Own("read_write", "br-1", &Applied{PgSettings: shared})
	own.PgSettings["jit"] = "off"
	if len(shared) != 1 {
		t.Error("Own shares the settings it reads")
	}
	if v := Own("read_write", "br-1", &Applied{}); v.PgSettings == nil {
		t.Error("Own leaves settings nil")
	}
	if a := (Values{Applied: Applied{PgSettings: map[string]string{}}}).Recorded(); a.PgSettings != nil {
		t.Errorf("Recorded keeps no settings as %#v, want nil", a.PgSettings)
	}
	rec := (Values{Applied: Applied{PgSettings: shared}}).Recorded()
	rec.PgSettings["jit"] = "on"
	if len(shared) != 1 {
		t.Error("Recorded shares the settings it records")
	}
	for _, tt := range []struct {
		a    Applied
		want string
	}{
		{Applied{}, `{"name":"","min_cu":0,"max_cu":0,"suspend_timeout_seconds":0,"disabled":false}`},
		{Applied{PgSettings: map[string]string{}}, `{"name":"","min_cu":0,"max_cu":0,"suspend_timeout_seconds":0,"pg_settings":{},"disabled":false}`},
	} {
		if b, err := json.Marshal(tt.a); err != nil || string(b) != tt.want {
			t.Errorf("%#v is written %s (%v), want %s", tt.a, b, err, tt.want)
		}
	}
}
