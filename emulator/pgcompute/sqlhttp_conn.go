package pgcompute

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// The proxy's port also answers the service's SQL over HTTP (sqlhttp.go), as the
// service's proxy serves both on an endpoint's host: a connection is one or the
// other from its first byte. A Postgres client's first message starts with its
// length, whose first byte is zero for any message under 16 MiB; an HTTP request
// starts with its method, in capitals.

// route serves one client connection, Postgres or HTTP.
func (p *Proxy) route(conn net.Conn) {
	conn.SetReadDeadline(time.Now().Add(startupTimeout))
	var first [1]byte
	if _, err := io.ReadFull(conn, first[:]); err != nil {
		return
	}
	conn.SetReadDeadline(time.Time{})
	c := &replayConn{Conn: conn, r: io.MultiReader(bytes.NewReader(first[:]), conn)}
	if first[0] >= 'A' && first[0] <= 'Z' {
		p.serveHTTP(c)
		return
	}
	p.handle(c)
}

// replayConn is a connection whose first bytes were read already and are read again.
type replayConn struct {
	net.Conn
	r io.Reader
}

func (c *replayConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// httpIdleTimeout is how long a kept-alive HTTP connection waits for its next request.
const httpIdleTimeout = 2 * time.Minute

// serveHTTP answers the requests of one HTTP/1.1 connection in turn (kept alive, as
// fetch keeps it) until the client closes it, asks to, or sends what is not HTTP.
func (p *Proxy) serveHTTP(conn net.Conn) {
	br := bufio.NewReader(conn)
	for {
		conn.SetReadDeadline(time.Now().Add(httpIdleTimeout))
		req, err := http.ReadRequest(br)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				writeHTTP(conn, http.StatusBadRequest, http.Header{}, []byte(`{"message":"malformed HTTP request"}`), true)
			}
			return
		}
		conn.SetReadDeadline(time.Time{})
		if req.Header.Get("Expect") == "100-continue" { // curl asks before a large body
			if _, err := io.WriteString(conn, "HTTP/1.1 100 Continue\r\n\r\n"); err != nil {
				return
			}
		}
		status, header, body := p.answerSQL(req, func() (context.Context, func()) { return watchClient(conn, br) })
		io.Copy(io.Discard, req.Body) // what the answer did not need, so the next request can be read
		req.Body.Close()
		if writeHTTP(conn, status, header, body, req.Close) != nil || req.Close {
			return
		}
	}
}

// watchClient is the context of a request whose body has been read: it ends when
// the client goes away (its connection reads an end or fails), which cancels the
// query the request runs. stop ends the watch, and the connection reads the next
// request; a request sent meanwhile (pipelined) ends the watch without cancelling.
func watchClient(conn net.Conn, br *bufio.Reader) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := br.Peek(1); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			cancel()
		}
	}()
	return ctx, func() {
		conn.SetReadDeadline(time.Unix(1, 0)) // wakes the Peek
		<-done
		conn.SetReadDeadline(time.Time{})
		cancel()
	}
}

// writeHTTP writes one JSON answer.
func writeHTTP(conn net.Conn, status int, header http.Header, body []byte, closing bool) error {
	header.Set("Content-Type", "application/json")
	header.Set("Access-Control-Allow-Origin", "*")
	resp := &http.Response{StatusCode: status, ProtoMajor: 1, ProtoMinor: 1, Header: header,
		ContentLength: int64(len(body)), Body: io.NopCloser(bytes.NewReader(body)), Close: closing}
	w := bufio.NewWriter(conn)
	if err := resp.Write(w); err != nil {
		return err
	}
	return w.Flush()
}
