package managed

import "testing"

// A size's three arguments set a size; the suspend timeout's says when a
// compute scales to zero; no other argument says what a compute gets.
func TestSizeAndScalingArguments(t *testing.T) {
	for _, arg := range Arguments() {
		size := arg == "size" || arg == "min_cu" || arg == "max_cu"
		if got := SizeArgument(arg); got != size {
			t.Errorf("SizeArgument(%q) = %v, want %v", arg, got, size)
		}
		if got, want := ScalingArgument(arg), size || arg == "suspend_timeout"; got != want {
			t.Errorf("ScalingArgument(%q) = %v, want %v", arg, got, want)
		}
	}
}
