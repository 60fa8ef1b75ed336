package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/neonform/neonform/internal/textsafe"
)

// Error is an answer of the service that is not a success: its HTTP status
// and, when the body was the service's GeneralError, its code and message.
// It never carries headers, so the key cannot leak through it.
type Error struct {
	Method     string
	Path       string // relative to the base URL, e.g. /projects/p/endpoints/ep-x
	StatusCode int
	Code       string
	Message    string
	RequestID  string
	// URLHint, on a 404, says that the API URL lacks the /api/v2 the
	// service's API is under, and what it probably should be: the likelier
	// cause than a missing project.
	URLHint string
}

// Error reads like
// "PATCH /projects/p/endpoints/ep-x: 423 Locked: project already has running conflicting operations, ... (request id r1)".
// What the service wrote (its message, the request id) and the ids in the
// path are shown escaped (internal/textsafe): an error is printed on
// terminals and in logs, and the service's text must not control them.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d", e.Method, textsafe.Terminal(e.Path), e.StatusCode)
	if text := http.StatusText(e.StatusCode); text != "" {
		b.WriteString(" " + text)
	}
	if e.Message != "" {
		b.WriteString(": " + textsafe.Terminal(e.Message))
	}
	if hint := statusHint(e.StatusCode); hint != "" {
		b.WriteString("; " + hint)
	}
	if e.URLHint != "" {
		b.WriteString("; " + e.URLHint)
	}
	if e.RequestID != "" {
		b.WriteString(" (request id " + textsafe.Terminal(e.RequestID) + ")")
	}
	return b.String()
}

// statusHint says how to fix the errors whose cause is on the caller's side
// and not obvious from the service's message.
func statusHint(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "check the API key (NEON_API_KEY): it is missing, mistyped or revoked"
	case http.StatusForbidden:
		return "the API key has no access to this resource (a project-scoped key sees only its own project)"
	}
	return ""
}

// AmbiguousError is a mutation whose outcome is unknown: the request was sent
// but the answer was lost (connection dropped, deadline passed, or a gateway
// timed out). It is never retried; check the live state before repeating it,
// or a create could run twice.
type AmbiguousError struct {
	Method string
	Path   string
	Err    error
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s %s: the request was sent but its outcome is unknown (%v); check the live state before repeating it",
		e.Method, textsafe.Terminal(e.Path), e.Err)
}

func (e *AmbiguousError) Unwrap() error { return e.Err }

// OperationFailedError is an operation that ended in failed, error or cancelled.
// (OperationError is taken: it is the status "error" in types.go.)
type OperationFailedError struct {
	ProjectID   string
	OperationID string
	Action      OperationAction
	EndpointID  string
	BranchID    string
	Status      OperationStatus
	// Text is the operation's error text from the service; may be empty.
	Text string
}

// Error shows every field, all of them the service's, escaped, as
// Error.Error does.
func (e *OperationFailedError) Error() string {
	var b strings.Builder
	b.WriteString("operation " + textsafe.Terminal(string(e.Action)))
	switch {
	case e.EndpointID != "":
		b.WriteString(" of endpoint " + textsafe.Terminal(e.EndpointID))
	case e.BranchID != "":
		b.WriteString(" of branch " + textsafe.Terminal(e.BranchID))
	}
	fmt.Fprintf(&b, " in project %s ended %s", textsafe.Terminal(e.ProjectID), textsafe.Terminal(string(e.Status)))
	if e.Text != "" {
		b.WriteString(": " + textsafe.Terminal(e.Text))
	} else {
		b.WriteString(" without an error text from the service")
	}
	b.WriteString(" (operation " + textsafe.Terminal(e.OperationID) + ")")
	return b.String()
}

func operationError(op Operation) *OperationFailedError {
	return &OperationFailedError{
		ProjectID: op.ProjectID, OperationID: op.ID, Action: op.Action,
		EndpointID: op.EndpointID, BranchID: op.BranchID, Status: op.Status, Text: op.Error,
	}
}

// IsNoAnswer reports whether err is a request that got no answer at all:
// the service could not be reached (connection refused, a name that does not
// resolve, TLS), or did not answer in time.
func IsNoAnswer(err error) bool {
	var t *transportFailure
	return errors.As(err, &t)
}

// URLHintOf is the hint of a 404 that the API URL looks wrong (Error.URLHint),
// or "".
func URLHintOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.URLHint
	}
	return ""
}

// IsNotFound reports whether err is the service's 404.
func IsNotFound(err error) bool { return StatusOf(err) == http.StatusNotFound }

// IsAmbiguous reports whether err is a mutation whose outcome is unknown.
func IsAmbiguous(err error) bool {
	var a *AmbiguousError
	return errors.As(err, &a)
}

// StatusOf returns the HTTP status of the service's answer in err, or 0 when
// err holds no answer (nil, a network error, a cancelled context).
func StatusOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}
