package api

import (
	"fmt"
	"strconv"

	"github.com/neonform/neonform/internal/textsafe"
)

// The ids in the service's answers are checked as they are decoded, like
// the ids neonform puts in a path (checkID): an endpoint id goes into the
// path of the calls a plan makes, so one like "ep-x/../../projects/victim"
// from a lying server or proxy would reach another resource. It is the
// service's mistake, and said so, with the call that answered it.

// InvalidIDError is an answer holding an id that is not one.
type InvalidIDError struct {
	Method, Path string
	// What is the kind of id ("endpoint", "branch"), ID the value sent.
	What, ID string
}

// Error names the call and the value, escaped (the value is the service's).
func (e *InvalidIDError) Error() string {
	return fmt.Sprintf("%s %s: the service sent an invalid %s id %s: ids are 1 to 60 lowercase letters, digits and dashes. neonform does not use it; check that the API URL (NEON_API_URL, or api_url in the neonform block) is the service's",
		e.Method, textsafe.Terminal(e.Path), e.What, textsafe.Terminal(strconv.Quote(e.ID)))
}

// answerIDs is an answer whose ids are checked (checkAnswerIDs).
type answerIDs interface {
	// badID is the kind and value of the first id that is not valid; what
	// is "" when all are.
	badID() (what, id string)
}

// checkAnswerIDs refuses a decoded answer holding an invalid id.
func checkAnswerIDs(method, path string, out any) error {
	a, ok := out.(answerIDs)
	if !ok {
		return nil
	}
	if what, id := a.badID(); what != "" {
		return &InvalidIDError{Method: method, Path: path, What: what, ID: id}
	}
	return nil
}

// endpointBadID is the first of an endpoint's ids that is not valid.
func endpointBadID(id, branchID string) (what, bad string) {
	switch {
	case !ValidResourceID(id):
		return "endpoint", id
	case !ValidResourceID(branchID):
		return "branch", branchID
	}
	return "", ""
}

func (r *EndpointResponse) badID() (string, string) {
	return endpointBadID(r.Endpoint.ID, r.Endpoint.BranchID)
}

func (r *EndpointsResponse) badID() (string, string) {
	for i := range r.Endpoints {
		if what, id := endpointBadID(r.Endpoints[i].ID, r.Endpoints[i].BranchID); what != "" {
			return what, id
		}
	}
	return "", ""
}

func (r *endpointSummaries) badID() (string, string) {
	for i := range r.Endpoints {
		if what, id := endpointBadID(r.Endpoints[i].ID, r.Endpoints[i].BranchID); what != "" {
			return what, id
		}
	}
	return "", ""
}

func (r *EndpointOperations) badID() (string, string) {
	return endpointBadID(r.Endpoint.ID, r.Endpoint.BranchID)
}

// ValidResourceID reports whether id is 1 to 60 lowercase letters, digits
// and dashes, the shape of the service's ids: what the client puts in
// a path, and what a plan file's steps may name. Without a regular
// expression, as it runs on every endpoint of every list a plan reads.
func ValidResourceID(id string) bool {
	if len(id) == 0 || len(id) > 60 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
