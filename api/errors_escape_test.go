package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/textsafe/textsafetest"
)

// quoted is s as a JSON string, quotes included.
func quoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// An error message and a request id the service (or a proxy) writes to break
// a terminal reach the error's text escaped, the way every view prints it;
// so does a failed operation's error text.
func TestServiceErrorsShowTheirTextEscaped(t *testing.T) {
	bad := textsafetest.Name
	// A header cannot carry controls below space (Go's client refuses the
	// answer), but can carry a bidi override.
	s := newStub(t, answer(409, `{"code":"CONFLICT","message":`+quoted(bad)+`,"request_id":`+quoted(bad)+`}`, "X-Request-Id", "r-\u202egnp"))
	var log bytes.Buffer
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.Log = &log })
	_, err := c.GetEndpoint(context.Background(), "p-1", "ep-one")
	if err == nil {
		t.Fatal("no error for a 409")
	}
	textsafetest.Terminal(t, "the service's error", err.Error())
	if got := log.String(); strings.Contains(got, "\u202e") || !strings.Contains(got, `request_id r-\u202egnp`) {
		t.Errorf("the debug log does not show the request id escaped:\n%s", got)
	}

	inner := quoted(bad)
	ops, _ := operations(t, map[string][]string{opStart: {"failed"}}, inner[1:len(inner)-1])
	c2, _ := newClient(t, ops.api(), nil)
	err = c2.WaitOperations(context.Background(), "p-1", running(opStart))
	if err == nil {
		t.Fatal("no error for a failed operation")
	}
	textsafetest.Terminal(t, "a failed operation's error", err.Error())
}
