package emulator

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/neonform/neonform/api"
)

// Connection URIs of a branch's databases, as the service builds them (the vendor's
// own test client shows one):
// postgresql://ROLE:PASSWORD@HOST/DATABASE?sslmode=require&channel_binding=require,
// through an endpoint's host, or its pooler's (the first label of the host with
// -pooler appended) when pooled.

func connectionURI(host string, r role, dbName string) string {
	u := url.URL{Scheme: "postgresql", User: url.UserPassword(r.Name, r.Password), Host: host, Path: "/" + dbName,
		RawQuery: "sslmode=require&channel_binding=require"}
	return u.String()
}

// poolerHost is ep-cool-darkness-a5b6c7d8-pooler.us-east-2.aws.neon.tech for
// ep-cool-darkness-a5b6c7d8.us-east-2.aws.neon.tech.
func poolerHost(host string) string {
	first, rest, _ := strings.Cut(host, ".")
	return first + "-pooler." + rest
}

// endpointURI is the URI of a database through ep (its pooler when pooled); with
// Options.Postgres, through the local proxy, which connects (sessions.go).
func (e *Emulator) endpointURI(ep *endpoint, pooled bool, r role, dbName string) string {
	if pg := e.opts.Postgres; pg != nil {
		return localURI(pg.Addr(), ep.ID, r.Name, r.Password, dbName)
	}
	host := ep.Host
	if pooled {
		host = poolerHost(host)
	}
	return connectionURI(host, r, dbName)
}

// localURI is the URI of a database through the local proxy at addr: plain TCP
// on loopback, so no TLS and no server name; the endpoint is named in the
// options parameter, as the service's proxy accepts it from clients without SNI.
func localURI(addr, endpointID, roleName, password, dbName string) string {
	q := url.Values{"options": {"endpoint=" + endpointID}, "sslmode": {"disable"}}
	u := url.URL{Scheme: "postgresql", User: url.UserPassword(roleName, password), Host: addr, Path: "/" + dbName,
		RawQuery: q.Encode()}
	return u.String()
}

// connectionDetails are the connection URIs in the answer that creates a branch (or a
// project): one, through ep, when the branch has one role and one database; none when
// it has more ("the response body does not include a connection URI"), or no compute.
func (e *Emulator) connectionDetails(b *branch, ep *endpoint) []api.ConnectionDetails {
	if ep == nil || len(b.Roles) != 1 || len(b.Databases) != 1 {
		return []api.ConnectionDetails{}
	}
	r, db := b.Roles[0], b.Databases[0].Name
	return []api.ConnectionDetails{{
		ConnectionURI: e.endpointURI(ep, false, r, db),
		ConnectionParameters: api.ConnectionParameters{Database: db, Password: r.Password, Role: r.Name,
			Host: ep.Host, PoolerHost: poolerHost(ep.Host)},
	}}
}

// getConnectionURI answers GET /projects/{project_id}/connection_uri: the URI of a
// role and database of a branch (default: the project's default branch) through an
// endpoint of it (default: its read_write endpoint).
func (e *Emulator) getConnectionURI(c *call) (int, any, error) {
	q := c.r.URL.Query()
	dbName, roleName := q.Get("database_name"), q.Get("role_name")
	if dbName == "" || roleName == "" {
		return 0, nil, badRequest("database_name and role_name are required: the database and the role to connect as (see the branch's databases and roles)")
	}
	pooled := false
	if s := q.Get("pooled"); s != "" {
		var err error
		if pooled, err = strconv.ParseBool(s); err != nil {
			return 0, nil, badRequest("pooled %q is neither true nor false", s)
		}
	}
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	b := p.defaultBranch()
	if id := q.Get("branch_id"); id != "" {
		if b = p.branches[id]; b == nil {
			return 0, nil, branchNotFound(id)
		}
	}
	var ep *endpoint
	if id := q.Get("endpoint_id"); id != "" {
		if ep = p.endpoints[id]; ep == nil || ep.BranchID != b.ID {
			return 0, nil, errorf(http.StatusNotFound, codeEndpointNotFound, "endpoint %s not found on branch %s", id, b.ID)
		}
	} else if ep = p.readWriteOn(b.ID); ep == nil {
		return 0, nil, errorf(http.StatusNotFound, codeEndpointNotFound,
			"branch %s has no read_write endpoint to connect through; pass the endpoint_id of one of its read_only endpoints, or create a read_write one", b.ID)
	}
	r := b.role(roleName)
	if r == nil {
		return 0, nil, roleNotFound(roleName, b.ID)
	}
	if b.database(dbName) == nil {
		return 0, nil, errorf(http.StatusNotFound, codeDatabaseNotFound, "database %q not found on branch %s", dbName, b.ID)
	}
	return http.StatusOK, api.ConnectionURIResponse{URI: e.endpointURI(ep, pooled, *r, dbName)}, nil
}
