package command

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/state"
)

// connectionURIs asks the service, for each compute at addrs, the URI of its
// branch's first database as that database's owner, through the compute
// (output -connection-uris): the form the service's clients connect with,
// whatever the service (through the emulator's Postgres proxy, its options
// name the endpoint). The password is taken out: it goes to standard output,
// which pipelines log, and the state never holds it.
func connectionURIs(ctx context.Context, o outputOptions, st *state.State, addrs []string) (map[string]string, error) {
	cfg, err := loadConfig(ctx, o.planInputs, o.Env, o.Stderr)
	if err != nil {
		return nil, err
	}
	conn, err := connect(cfg, o.Env, o.Stderr, 0)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if conn.sandbox != nil {
		conn.sandbox.sayPostgres(o.Stderr)
	}
	databases := map[string]api.Database{} // by project and branch
	uris := make(map[string]string, len(addrs))
	for _, addr := range addrs {
		c := st.Computes[addr]
		where := c.ProjectID + "/" + c.BranchID
		db, ok := databases[where]
		if !ok {
			list, err := conn.client.ListDatabases(ctx, c.ProjectID, c.BranchID)
			if err != nil {
				return nil, fmt.Errorf("%s: reading the databases of branch %s: %w", addr, c.BranchID, err)
			}
			if len(list) == 0 {
				return nil, fmt.Errorf("%s: branch %s of project %s has no database to connect to; create one in the console", addr, c.BranchID, c.ProjectID)
			}
			db = list[0]
			databases[where] = db
		}
		uri, err := conn.client.ConnectionURI(ctx, c.ProjectID, c.BranchID, c.EndpointID, db.Name, db.OwnerName)
		if err != nil {
			return nil, fmt.Errorf("%s: reading its connection URI: %w", addr, err)
		}
		if uris[addr], err = withoutPassword(uri); err != nil {
			return nil, fmt.Errorf("%s: %w", addr, err)
		}
	}
	return uris, nil
}

// withoutPassword is uri with its user's password taken out.
func withoutPassword(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		// Not err: its text holds the URI, password and all.
		return "", errors.New("the service gave a connection URI that is not a URL")
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	return u.String(), nil
}
