package managed

import "testing"

// Every attribute says what a compute block that leaves out its arguments
// asks for: a value, the label, or its place when no argument sets it. An
// entry added without a decided default fails here, not in a run.
func TestEveryAttributeHasADefault(t *testing.T) {
	for _, a := range All {
		d := a.Default
		if !d.Decided() {
			t.Errorf("%s: its Default is %+v; say its value (Is), FromLabel or ByPlace", a.Name, d)
			continue
		}
		// Only an attribute no argument sets takes its value from the block's place.
		if d.Placed != (len(a.Arguments) == 0) {
			t.Errorf("%s: by place %v, but its arguments are %v", a.Name, d.Placed, a.Arguments)
		}
	}
}

func TestDefaultOf(t *testing.T) {
	if v, ok := FromLabel.Of("reporting"); !ok || v != "reporting" {
		t.Errorf("FromLabel.Of = %v, %v; want the label", v, ok)
	}
	if v, ok := Is(int64(0)).Of("reporting"); !ok || v != int64(0) {
		t.Errorf("Is(0).Of = %v, %v; want 0", v, ok)
	}
	if _, ok := ByPlace.Of("reporting"); ok {
		t.Errorf("ByPlace gives a value")
	}
	for _, d := range []Default{{}, {Value: 1, Label: true}, {Label: true, Placed: true}} {
		if d.Decided() {
			t.Errorf("%+v is decided", d)
		}
	}
}
