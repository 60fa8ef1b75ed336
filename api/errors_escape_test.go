package api_test

import (
	"context"
	"encoding/json"
	"testing"

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
	s := newStub(t, answer(409, `{"code":"CONFLICT","message":`+quoted(bad)+`,"request_id":`+quoted(bad)+`}`))
	c, _ := newClient(t, s.api(), nil)
	_, err := c.GetEndpoint(context.Background(), "p-1", "ep-one")
	if err == nil {
		t.Fatal("no error for a 409")
	}
	textsafetest.Terminal(t, "the service's error", err.Error())

	inner := quoted(bad)
	ops, _ := operations(t, map[string][]string{opStart: {"failed"}}, inner[1:len(inner)-1])
	c2, _ := newClient(t, ops.api(), nil)
	err = c2.WaitOperations(context.Background(), "p-1", running(opStart))
	if err == nil {
		t.Fatal("no error for a failed operation")
	}
	textsafetest.Terminal(t, "a failed operation's error", err.Error())
}
