package emulator

import (
	"fmt"
	"net/http"
)

// Error codes in the GeneralError body. The service does not document its codes; these
// follow the control-plane reasons seen in the wild (docs/service.md, Errors), so a client can
// tell the cases apart without parsing messages.
const (
	codeBadRequest       = "BAD_REQUEST"
	codeUnsupportedField = "UNSUPPORTED_FIELD"
	codeTooLarge         = "REQUEST_TOO_LARGE"
	codeUnauthorized     = "UNAUTHORIZED"
	codeForbidden        = "FORBIDDEN"
	codeNotFound         = "NOT_FOUND"
	codeProjectNotFound  = "PROJECT_NOT_FOUND"
	codeBranchNotFound   = "BRANCH_NOT_FOUND"
	codeEndpointNotFound = "ENDPOINT_NOT_FOUND"
	codeOperationMissing = "OPERATION_NOT_FOUND"
	codeRoleNotFound     = "ROLE_NOT_FOUND"
	codeDatabaseNotFound = "DATABASE_NOT_FOUND"
	codeKeyNotFound      = "API_KEY_NOT_FOUND"
	codeMethodNotAllowed = "METHOD_NOT_ALLOWED"
	codeConflict         = "CONFLICT"
	codeReadWriteExists  = "READ_WRITE_ENDPOINT_EXISTS"
	codeNotActive        = "ENDPOINT_NOT_ACTIVE"
	codeDisabled         = "ENDPOINT_DISABLED"
	codeNotReady         = "BRANCH_NOT_READY"
	codeLocked           = "RUNNING_OPERATIONS"
	codeRateLimited      = "RATE_LIMIT_EXCEEDED"
	codeUnavailable      = "SERVICE_UNAVAILABLE"
)

// msgNoRoute is the service's answer to a path it does not serve, with an empty
// code: the official neon CLI reads a 404 saying the route "does not exist" as a
// feature not deployed (docs/service.md, Errors).
const msgNoRoute = "this route does not exist"

// msgLocked is the service's exact message for a mutation while operations run.
const msgLocked = "project already has running conflicting operations, scheduling of new ones is prohibited"

// apiError is an answer other than success: an HTTP status and the GeneralError body.
type apiError struct {
	status  int
	code    string
	message string
	// retryAfter, when > 0, is sent as Retry-After (seconds).
	retryAfter int
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.status, e.code, e.message) }

func errorf(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, codeBadRequest, format, args...)
}

func forbidden(format string, args ...any) *apiError {
	return errorf(http.StatusForbidden, codeForbidden, format, args...)
}

func conflict(code, format string, args ...any) *apiError {
	return errorf(http.StatusConflict, code, format, args...)
}

func locked() *apiError {
	return &apiError{status: http.StatusLocked, code: codeLocked, message: msgLocked}
}

// routeNotFound answers a path the emulator does not serve, in the service's words.
func routeNotFound() *apiError {
	return errorf(http.StatusNotFound, "", "%s", msgNoRoute)
}

func projectNotFound(id string) *apiError {
	return errorf(http.StatusNotFound, codeProjectNotFound, "project %s not found", id)
}

func branchNotFound(id string) *apiError {
	return errorf(http.StatusNotFound, codeBranchNotFound, "branch %s not found", id)
}

func endpointNotFound(id string) *apiError {
	return errorf(http.StatusNotFound, codeEndpointNotFound, "endpoint %s not found", id)
}
