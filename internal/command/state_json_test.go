package command

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/state"
)

// An entry recorded before neonform kept hosts says it does not know the
// host (null), rather than an empty host name a script would try to use.
func TestStateJSONHostIsNullWhenUnknown(t *testing.T) {
	var b strings.Builder
	if err := writeJSON(&b, entryJSON("shop.main.primary", &state.Compute{EndpointID: "ep-x", Type: "read_write"})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"host": null,`) {
		t.Errorf("got:\n%s", b.String())
	}
}
