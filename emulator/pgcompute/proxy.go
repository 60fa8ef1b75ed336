// Package pgcompute backs the emulator's computes with real Postgres
// (docs/emulator.md, Real Postgres behind the computes): one cluster (cluster.go),
// started on the first connection, holds every branch's databases, and a proxy on
// loopback speaks the Postgres protocol, finds the compute a client asks for by its
// endpoint id as the service's proxy does, asks the emulator whether it may connect
// (which wakes the compute and counts the connection), and relays the session to the
// branch's database with the compute's pg_settings.
package pgcompute

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/neonform/neonform/emulator"
)

// Proxy is the Postgres-protocol front of the computes. It implements
// emulator.Postgres: build it, give it to emulator.Options, then Serve.
type Proxy struct {
	ln      net.Listener
	cluster *Cluster
	emu     *emulator.Emulator
	tls     *tls.Config
	pool    connPool // SQL over HTTP's idle connections (sqlhttp_pool.go)

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Listen takes the proxy's address (a loopback HOST:PORT; port 0 picks one) in
// front of cluster, which the caller stops after the proxy's Close.
func Listen(addr string, cluster *Cluster) (*Proxy, error) {
	cfg, err := selfSigned()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &Proxy{ln: ln, cluster: cluster, tls: cfg, conns: map[net.Conn]struct{}{}}, nil
}

// Addr is HOST:PORT of the proxy.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Cluster is the Postgres server behind the proxy.
func (p *Proxy) Cluster() *Cluster { return p.cluster }

// BranchCreated implements emulator.Postgres. The parent's idle SQL over HTTP
// connections close first: a database is copied fast (as a template) only
// while nothing is connected to it.
func (p *Proxy) BranchCreated(parentID, branchID string, databases []string) error {
	closeAll(p.pool.takeWhere(func(k poolKey) bool { return k.branchID == parentID }))
	return p.cluster.BranchCreated(parentID, branchID, databases)
}

// BranchesDeleted implements emulator.Postgres.
func (p *Proxy) BranchesDeleted(ids []string) { p.cluster.BranchesDeleted(ids) }

// Serve accepts connections for emu's computes until Close.
func (p *Proxy) Serve(emu *emulator.Emulator) error {
	p.emu = emu
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			if p.isClosed() {
				return nil
			}
			return err
		}
		if !p.track(conn) {
			conn.Close()
			return nil
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer p.untrack(conn)
			p.route(conn) // Postgres, or SQL over HTTP (sqlhttp_conn.go)
		}()
	}
}

// Close stops accepting and closes every client connection.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	p.pool.shut()
	return err
}

func (p *Proxy) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// startupTimeout bounds the time a client takes to say who it is (up to its password).
const startupTimeout = 30 * time.Second

// msgNoEndpoint is the service proxy's answer to a client that names no endpoint.
const msgNoEndpoint = "Endpoint ID is not specified. Either please upgrade the postgres client library (libpq) for SNI support or pass the endpoint ID (first part of the domain name) as a parameter: '?options=endpoint%3D<endpoint-id>'. See more at https://neon.tech/sni"

// handle serves one client: the startup, then the relay.
func (p *Proxy) handle(raw net.Conn) {
	in, ok := p.login(raw)
	if !ok {
		return
	}
	be := in.be
	var backend net.Conn
	var mu sync.Mutex
	dropped := false
	drop := func() { // the compute is interrupted: its clients lose their connections
		mu.Lock()
		dropped = true
		if backend != nil {
			backend.Close()
		}
		mu.Unlock()
		raw.Close()
	}
	sess, err := p.emu.OpenSession(in.endpointID, in.user, in.password, in.db, drop)
	if err != nil {
		var ce *emulator.ConnectError
		if errors.As(err, &ce) {
			fatal(be, ce.Code, ce.Message)
		} else {
			fatal(be, "XX000", "the emulator could not open the session: "+err.Error())
		}
		return
	}
	defer sess.Close()
	if sess.StartsIn > 0 {
		time.Sleep(sess.StartsIn) // the compute wakes, as the service's proxy waits for it
	}
	conn, err := p.dial(sess, in.params, in.options)
	if err != nil {
		fatal(be, "08006", "the compute's Postgres could not be reached: "+err.Error())
		return
	}
	mu.Lock()
	backend = conn
	if dropped {
		conn.Close()
	}
	mu.Unlock()
	defer conn.Close()
	if !relayStartup(be, conn) {
		return
	}
	done := make(chan struct{})
	go func() {
		io.Copy(conn, in.client)
		conn.Close()
		close(done)
	}()
	io.Copy(in.client, conn)
	in.client.Close()
	<-done
}

// clientLogin is what a client said before its session opens.
type clientLogin struct {
	client net.Conn
	be     *pgproto3.Backend
	// params are the startup message's; options what is left of its
	// options once the endpoint is taken out.
	params                         map[string]string
	options                        string
	endpointID, user, password, db string
}

// login reads the client's startup message and password, and finds the
// endpoint it names; ok is false when the client is gone or was told why
// not.
func (p *Proxy) login(raw net.Conn) (in clientLogin, ok bool) {
	raw.SetDeadline(time.Now().Add(startupTimeout))
	client, be, serverName, startup, err := p.receiveStartup(raw)
	if err != nil || startup == nil {
		return in, false
	}
	in = clientLogin{client: client, be: be, params: startup.Parameters}
	in.endpointID, in.options = splitOptions(in.params["options"])
	if in.endpointID == "" {
		in.endpointID = endpointOfHost(serverName)
	}
	be.Send(&pgproto3.AuthenticationCleartextPassword{})
	if err := be.Flush(); err != nil {
		return in, false
	}
	if err := be.SetAuthType(pgproto3.AuthTypeCleartextPassword); err != nil {
		return in, false
	}
	msg, err := be.Receive()
	if err != nil {
		return in, false
	}
	// The client has said everything; what follows (the first connection starts
	// the cluster, which takes seconds) is bounded by its own connect timeout.
	raw.SetDeadline(time.Time{})
	pw, isPassword := msg.(*pgproto3.PasswordMessage)
	if !isPassword {
		fatal(be, "08P01", "expected a password message")
		return in, false
	}
	in.password = pw.Password
	if in.endpointID == "" {
		in.endpointID, in.password = passwordForm(in.password)
	}
	if in.endpointID == "" {
		fatal(be, "08001", msgNoEndpoint)
		return in, false
	}
	in.user, in.db = in.params["user"], in.params["database"]
	if in.db == "" {
		in.db = in.user
	}
	return in, true
}

// receiveStartup reads the client's startup message: over TLS when the client
// asks for it (then serverName is the name it sent, if any), declining GSS
// encryption, and passing cancel requests on to the cluster. It returns the
// connection to go on with and its reader; a nil message without error: there was
// nothing more to do.
func (p *Proxy) receiveStartup(raw net.Conn) (conn net.Conn, be *pgproto3.Backend, serverName string, _ *pgproto3.StartupMessage, _ error) {
	conn = raw
	be = pgproto3.NewBackend(conn, conn)
	for {
		msg, err := be.ReceiveStartupMessage()
		if err != nil {
			return nil, nil, "", nil, err
		}
		switch m := msg.(type) {
		case *pgproto3.SSLRequest:
			if conn != raw { // TLS inside TLS
				return nil, nil, "", nil, errors.New("a second TLS request")
			}
			if _, err := raw.Write([]byte{'S'}); err != nil {
				return nil, nil, "", nil, err
			}
			tc := tls.Server(raw, p.tls)
			if err := tc.Handshake(); err != nil {
				return nil, nil, "", nil, err
			}
			serverName = tc.ConnectionState().ServerName
			conn = tc
			be = pgproto3.NewBackend(conn, conn)
		case *pgproto3.GSSEncRequest:
			if _, err := conn.Write([]byte{'N'}); err != nil {
				return nil, nil, "", nil, err
			}
		case *pgproto3.CancelRequest:
			p.cluster.cancel(m)
			return nil, nil, "", nil, nil
		case *pgproto3.StartupMessage:
			return conn, be, serverName, m, nil
		default:
			return nil, nil, "", nil, fmt.Errorf("unexpected %T", msg)
		}
	}
}

// splitOptions takes endpoint=ID out of the options parameter ("endpoint=ep-x -c
// a=b"): the endpoint, and the rest, which goes to Postgres.
func splitOptions(options string) (endpointID, rest string) {
	var keep []string
	for _, f := range strings.Fields(options) {
		if v, ok := strings.CutPrefix(f, "endpoint="); ok {
			endpointID = v
			continue
		}
		keep = append(keep, f)
	}
	return endpointID, strings.Join(keep, " ")
}

// passwordForm reads the password of a client that cannot set options: the
// service's proxy takes "endpoint=ID;PASSWORD" (or "$" for ";").
func passwordForm(password string) (endpointID, rest string) {
	v, ok := strings.CutPrefix(password, "endpoint=")
	if !ok {
		return "", password
	}
	if i := strings.IndexAny(v, ";$"); i >= 0 {
		return v[:i], v[i+1:]
	}
	return "", password
}

// clientParams are the startup parameters the proxy sets itself.
var clientParams = map[string]bool{"user": true, "database": true, "options": true, "replication": true}

// dial connects to the branch's database in the cluster as the session's role (a
// replica's read-only one), with the compute's pg_settings, then the client's own
// parameters, which win as they would over the server's configuration.
func (p *Proxy) dial(sess *emulator.Session, params map[string]string, options string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := p.cluster.prepare(ctx, sess.BranchID, sess.Database, sess.Role)
	if err != nil {
		return nil, err
	}
	role := sess.Role
	if sess.ReadOnly {
		role = replicaRole(role)
	}
	startup := map[string]string{}
	for k, v := range p.cluster.sessionSettings(sess.PgSettings) {
		startup[k] = v
	}
	if sess.ReadOnly {
		delete(startup, "default_transaction_read_only")
	}
	for k, v := range params {
		if !clientParams[k] {
			startup[k] = v
		}
	}
	startup["user"], startup["database"] = role, db
	if options != "" {
		startup["options"] = options
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", p.cluster.socket())
	if err != nil {
		return nil, err
	}
	fe := pgproto3.NewFrontend(conn, conn)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: startup})
	if err := fe.Flush(); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// sessionSettings are the pg_settings Postgres lets a session have.
func (c *Cluster) sessionSettings(pg map[string]string) map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := maps.Clone(pg)
	maps.DeleteFunc(out, func(k, _ string) bool { return !c.settable[k] })
	return out
}

// relayStartup passes the server's answer to the startup on to the client, up to
// ReadyForQuery (true) or an error (false). The server trusts the proxy, so its
// first message is AuthenticationOk, which the client awaits after its password.
func relayStartup(be *pgproto3.Backend, conn net.Conn) bool {
	fe := pgproto3.NewFrontend(conn, conn)
	for {
		msg, err := fe.Receive()
		if err != nil {
			return false
		}
		be.Send(msg)
		switch msg.(type) {
		case *pgproto3.ReadyForQuery:
			return be.Flush() == nil
		case *pgproto3.ErrorResponse:
			be.Flush()
			return false
		}
	}
}

// cancel passes a client's cancel request on to the cluster: the client holds the
// real server's process id and key, which the proxy relayed.
func (c *Cluster) cancel(m *pgproto3.CancelRequest) {
	path := c.socket()
	if path == "" {
		return
	}
	conn, err := net.DialTimeout("unix", path, 5*time.Second)
	if err != nil {
		return
	}
	defer conn.Close()
	buf, err := m.Encode(nil)
	if err == nil {
		conn.Write(buf)
	}
}

func fatal(be *pgproto3.Backend, code, message string) {
	be.Send(&pgproto3.ErrorResponse{Severity: "FATAL", SeverityUnlocalized: "FATAL", Code: code, Message: message})
	be.Flush()
}
