package pgcompute

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/neonform/neonform/emulator"
)

// SQL over HTTP (docs/emulator.md, SQL over HTTP): the service's proxy answers
// POST /sql with the query of its JSON body ({"query", "params"}, or {"queries":
// [...]} run as one transaction) on the database the Neon-Connection-String
// header names, as the service's serverless driver (@neondatabase/serverless's
// neon()) sends it. Each request is a session of the compute like a Postgres
// client's: it opens (which wakes an idle compute, and is refused by a disabled
// one or for a wrong password), runs as the session's role (a replica's cannot
// write), and closes with the answer; the Postgres connection behind it is kept
// for the next request (sqlhttp_pool.go). A client that goes away cancels its
// query.

// The request headers of the service's SQL over HTTP.
const (
	hdrConnString = "Neon-Connection-String"
	hdrRawText    = "Neon-Raw-Text-Output" // "true": values as Postgres's text, not JSON types
	hdrArrayMode  = "Neon-Array-Mode"      // "true": rows as lists, not objects
	hdrIsolation  = "Neon-Batch-Isolation-Level"
	hdrReadOnly   = "Neon-Batch-Read-Only"
	hdrDeferrable = "Neon-Batch-Deferrable"
)

// maxSQLBody and maxSQLAnswer are the service's limits on a request's body and on
// the rows of an answer (then 507).
const (
	maxSQLBody   = 10 << 20
	maxSQLAnswer = 10 << 20
)

// isolationLevels are the values of Neon-Batch-Isolation-Level, in SQL.
var isolationLevels = map[string]string{
	"Serializable": "SERIALIZABLE", "RepeatableRead": "REPEATABLE READ",
	"ReadCommitted": "READ COMMITTED", "ReadUncommitted": "READ UNCOMMITTED",
}

// requestError is a request the endpoint refuses before running anything.
type requestError struct {
	status  int
	message string
}

func (e *requestError) Error() string { return e.message }

func badSQLRequest(format string, args ...any) error {
	return &requestError{status: http.StatusBadRequest, message: fmt.Sprintf(format, args...)}
}

// sqlQuery is one query of a request: its text, its parameters as Postgres text
// (nil for NULL), and whether its rows are lists (nil: as the header says).
type sqlQuery struct {
	Query     *string           `json:"query"`
	Params    []json.RawMessage `json:"params"`
	ArrayMode *bool             `json:"arrayMode"`
	params    [][]byte
}

// sqlRequest is what a request asks: one query, or a batch.
type sqlRequest struct {
	single     *sqlQuery
	batch      []sqlQuery
	raw, array bool
	// begin starts a batch's transaction with the headers' modes.
	begin string
}

// answerSQL answers one HTTP request to the proxy's port. Once its body is read,
// watch gives the context its queries run in, which ends when the client goes
// away, and the end of the watch.
func (p *Proxy) answerSQL(r *http.Request, watch func() (context.Context, func())) (int, http.Header, []byte) {
	h := http.Header{}
	if r.URL.Path != "/sql" {
		return errorAnswer(h, &requestError{http.StatusNotFound, "no such path: the service's SQL over HTTP is POST /sql"})
	}
	if r.Method != http.MethodPost {
		h.Set("Allow", http.MethodPost)
		return errorAnswer(h, &requestError{http.StatusMethodNotAllowed, "SQL over HTTP takes POST /sql"})
	}
	req, err := readSQLRequest(r)
	if err != nil {
		return errorAnswer(h, err)
	}
	target, err := parseConnString(r.Header.Get(hdrConnString))
	if err != nil {
		return errorAnswer(h, err)
	}
	ctx, stop := watch()
	defer stop()
	s, err := p.openSQL(ctx, target)
	if err != nil {
		return errorAnswer(h, err)
	}
	body, err := req.run(ctx, s.pg)
	var pgErr *pgconn.PgError
	s.end(p, ctx.Err() == nil && (err == nil || errors.As(err, &pgErr)))
	if err != nil && s.interrupted() {
		err = errInterrupted
	}
	if err != nil {
		return errorAnswer(h, err)
	}
	if req.batch != nil { // the service echoes the modes a batch ran with
		if v := r.Header.Get(hdrIsolation); v != "" {
			h.Set(hdrIsolation, v)
		}
		for _, k := range []string{hdrReadOnly, hdrDeferrable} {
			if r.Header.Get(k) == "true" {
				h.Set(k, "true")
			}
		}
	}
	return http.StatusOK, h, body
}

// readSQLRequest reads the headers and the body of a request.
func readSQLRequest(r *http.Request) (*sqlRequest, error) {
	req := &sqlRequest{raw: r.Header.Get(hdrRawText) == "true", array: r.Header.Get(hdrArrayMode) == "true", begin: "BEGIN"}
	if v := r.Header.Get(hdrIsolation); v != "" {
		level, ok := isolationLevels[v]
		if !ok {
			return nil, badSQLRequest("invalid isolation level %q in %s: Serializable, RepeatableRead, ReadCommitted or ReadUncommitted", v, hdrIsolation)
		}
		req.begin += " ISOLATION LEVEL " + level
	}
	if r.Header.Get(hdrReadOnly) == "true" {
		req.begin += " READ ONLY"
	}
	if r.Header.Get(hdrDeferrable) == "true" {
		req.begin += " DEFERRABLE"
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxSQLBody+1))
	if err != nil {
		return nil, badSQLRequest("reading the body: %v", err)
	}
	if len(raw) > maxSQLBody {
		return nil, &requestError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes", maxSQLBody)}
	}
	var body struct {
		sqlQuery
		Queries []sqlQuery `json:"queries"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, badSQLRequest("the body is not JSON: %v", err)
	}
	switch {
	case body.Queries != nil:
		req.batch = body.Queries
	case body.Query != nil:
		req.single = &body.sqlQuery
	default:
		return nil, badSQLRequest(`the body is neither {"query": SQL, "params": [...]} nor {"queries": [{"query": SQL, "params": [...]}, ...]}`)
	}
	for i := range req.batch {
		if req.batch[i].Query == nil {
			return nil, badSQLRequest("query %d of the batch has no \"query\"", i+1)
		}
	}
	return req, req.textParams()
}

// sqlTarget is the compute and database a connection string names.
type sqlTarget struct {
	endpointID, user, password, db, options string
}

// parseConnString reads the connection string a request names, finding its
// endpoint as the Postgres proxy does: options=endpoint=ID, the host's first
// label, or the password "endpoint=ID;PASSWORD".
func parseConnString(s string) (sqlTarget, error) {
	if s == "" {
		return sqlTarget{}, badSQLRequest("missing the %s header: the connection URI of the database (postgresql://ROLE:PASSWORD@HOST/DATABASE)", hdrConnString)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "postgresql" && u.Scheme != "postgres") || u.User == nil {
		return sqlTarget{}, badSQLRequest("the %s header is not a connection URI postgresql://ROLE:PASSWORD@HOST/DATABASE", hdrConnString)
	}
	var t sqlTarget
	t.user = u.User.Username()
	t.password, _ = u.User.Password()
	t.db = strings.TrimPrefix(u.Path, "/")
	if t.db == "" {
		t.db = t.user
	}
	t.endpointID, t.options = splitOptions(u.Query().Get("options"))
	if t.endpointID == "" {
		t.endpointID = endpointOfHost(u.Hostname())
	}
	if t.endpointID == "" {
		t.endpointID, t.password = passwordForm(t.password)
	}
	if t.endpointID == "" {
		return sqlTarget{}, badSQLRequest("%s", msgNoEndpoint)
	}
	return t, nil
}

// run runs the request's query, or its batch in one transaction, and writes the answer.
func (req *sqlRequest) run(ctx context.Context, pg *pgconn.PgConn) ([]byte, error) {
	var out bytes.Buffer
	if req.single != nil {
		if err := req.result(ctx, pg, req.single, &out); err != nil {
			return nil, err
		}
		return out.Bytes(), nil
	}
	if err := pg.Exec(ctx, req.begin).Close(); err != nil {
		return nil, err
	}
	out.WriteString(`{"results":[`)
	for i := range req.batch {
		if i > 0 {
			out.WriteByte(',')
		}
		if err := req.result(ctx, pg, &req.batch[i], &out); err != nil {
			pg.Exec(ctx, "ROLLBACK").Close()
			return nil, err
		}
	}
	out.WriteString("]}")
	if err := pg.Exec(ctx, "COMMIT").Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// errorAnswer is the service's answer to a failed request: 400 with Postgres's
// error fields for what the database refused (a query, a login), the status of
// the refusal for a bad request, and 500 for what went wrong in the emulator.
func errorAnswer(h http.Header, err error) (int, http.Header, []byte) {
	var pgErr *pgconn.PgError
	var connErr *emulator.ConnectError
	var reqErr *requestError
	status, body := http.StatusInternalServerError, sqlErrorBody{Message: err.Error()}
	switch {
	case errors.As(err, &pgErr):
		status, body = http.StatusBadRequest, pgErrorBody(pgErr)
	case errors.As(err, &connErr):
		status, body.Message, body.Code = http.StatusBadRequest, connErr.Message, connErr.Code
	case errors.As(err, &reqErr):
		status, body.Message = reqErr.status, reqErr.message
	}
	b, _ := json.Marshal(body)
	return status, h, b
}
