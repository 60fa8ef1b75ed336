package emulator

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
)

// A body over the limit is 413 with the service's error body, whether its
// Content-Length says so or it turns out longer while read (a chunked body); nothing is
// created: a request the service would refuse changes nothing.
func TestBodyOverTheLimitIs413(t *testing.T) {
	s := newService(t, Options{})
	big := `{"project":{"name":"` + strings.Repeat("x", maxBody) + `"}}`

	ge := wantCode(t, s.call("POST", "/projects", big), 413, codeTooLarge)
	if !strings.Contains(ge.Message, "larger than 1048576 bytes") {
		t.Errorf("413 message %q should say the limit", ge.Message)
	}
	if s.validated["POST /projects 413"] != 1 {
		t.Errorf("the 413 was not checked against the description: %v", s.validated)
	}

	// Of unknown length: the limit is found while reading.
	req, err := http.NewRequest("POST", s.srv.URL+apiPrefix+"/projects", struct{ io.Reader }{strings.NewReader(big)})
	must(t, err)
	req.Header.Set("Authorization", "Bearer "+s.key)
	req.Header.Set("Content-Type", "application/json")
	if req.ContentLength != 0 {
		t.Fatalf("the request has a Content-Length (%d); the test needs a chunked body", req.ContentLength)
	}
	resp, err := s.srv.Client().Do(req)
	must(t, err)
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	must(t, err)
	r := reply{status: resp.StatusCode, header: resp.Header, body: raw}
	s.validate(req, r)
	wantCode(t, r, 413, codeTooLarge)

	// A body just under the limit is read (and refused for its name, which is too long).
	under := `{"project":{"name":"` + strings.Repeat("x", maxBody-len(`{"project":{"name":""}}`)) + `"}}`
	wantCode(t, s.call("POST", "/projects", under), 400, codeBadRequest)

	var list api.ProjectsResponse
	s.call("GET", "/projects", nil).want(t, 200).decode(t, &list)
	if len(list.Projects) != 0 {
		t.Errorf("refused bodies created %d projects", len(list.Projects))
	}
}
