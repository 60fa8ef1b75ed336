package emulator

import (
	"net/http"
	"slices"
	"time"

	"github.com/neonform/neonform/api"
)

// A branch's Postgres roles and databases. neonform does not manage them; the
// emulator keeps what the service creates so that the service's CLI
// (connection-string, databases, roles) works beside neonform, and with
// Options.Postgres they are real (sessions.go):
//   - a project comes with one role and one database on its default branch: the
//     database named by branch.database_name (default neondb), owned by the role named
//     by branch.role_name (default {database_name}_owner), with a generated password;
//   - a new branch gets copies of its parent's roles (same passwords) and databases;
//   - both are read-only lists: creating, changing or deleting them is a 405.
//
// The password of a role is kept in the world file: connection URIs, which the
// service returns again on request, are built from it, and with Options.Postgres the
// proxy checks a client's password against it.

const defaultDatabaseName = "neondb"

// role is a Postgres role as stored.
type role struct {
	Name      string    `json:"name"`
	Password  string    `json:"password"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// database is a Postgres database as stored.
type database struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	OwnerName string    `json:"owner_name"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// addDefaultRoleAndDatabase gives a project's first branch its role and database.
func (e *Emulator) addDefaultRoleAndDatabase(b *branch, roleName, dbName string, now time.Time) {
	dbName = defaultString(dbName, defaultDatabaseName)
	roleName = defaultString(roleName, dbName+"_owner")
	b.Roles = []role{{Name: roleName, Password: newRolePassword(), CreatedAt: now, UpdatedAt: now}}
	b.Databases = []database{{ID: e.ids.databaseID(), Name: dbName, OwnerName: roleName, CreatedAt: now, UpdatedAt: now}}
}

// copyRolesAndDatabases gives a new branch its parent's roles and databases. The roles
// keep their passwords, but for a protected parent: then each gets a password of its
// own (the service's CLI warns of it: "The parent branch is protected; a unique role
// password has been generated for the new branch").
func (e *Emulator) copyRolesAndDatabases(b, parent *branch, now time.Time) {
	for _, r := range parent.Roles {
		password := r.Password
		if parent.Protected {
			password = newRolePassword()
		}
		b.Roles = append(b.Roles, role{Name: r.Name, Password: password, CreatedAt: now, UpdatedAt: now})
	}
	for _, d := range parent.Databases {
		b.Databases = append(b.Databases, database{ID: e.ids.databaseID(), Name: d.Name, OwnerName: d.OwnerName, CreatedAt: now, UpdatedAt: now})
	}
}

func (b *branch) role(name string) *role {
	i := slices.IndexFunc(b.Roles, func(r role) bool { return r.Name == name })
	if i < 0 {
		return nil
	}
	return &b.Roles[i]
}

func (b *branch) database(name string) *database {
	i := slices.IndexFunc(b.Databases, func(d database) bool { return d.Name == name })
	if i < 0 {
		return nil
	}
	return &b.Databases[i]
}

// wire renders a role; withPassword only in the answer that creates it.
func (r role) wire(branchID string, withPassword bool) api.Role {
	out := api.Role{BranchID: branchID, Name: r.Name, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if withPassword {
		out.Password = r.Password
	}
	return out
}

func (d database) wire(branchID string) api.Database {
	return api.Database{ID: d.ID, BranchID: branchID, Name: d.Name, OwnerName: d.OwnerName, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

// wireRoles and wireDatabases render a branch's lists, never nil.
func (b *branch) wireRoles(withPassword bool) []api.Role {
	out := make([]api.Role, 0, len(b.Roles))
	for _, r := range b.Roles {
		out = append(out, r.wire(b.ID, withPassword))
	}
	return out
}

func (b *branch) wireDatabases() []api.Database {
	out := make([]api.Database, 0, len(b.Databases))
	for _, d := range b.Databases {
		out = append(out, d.wire(b.ID))
	}
	return out
}

func roleNotFound(name, branchID string) *apiError {
	return errorf(http.StatusNotFound, codeRoleNotFound, "role %q not found on branch %s", name, branchID)
}

func (e *Emulator) listRoles(c *call) (int, any, error) {
	return e.readBranch(c, func(_ *project, b *branch) (any, error) {
		return api.RolesResponse{Roles: b.wireRoles(false)}, nil
	})
}

func (e *Emulator) getRole(c *call) (int, any, error) {
	return e.readBranch(c, func(_ *project, b *branch) (any, error) {
		r := b.role(c.param("role_name"))
		if r == nil {
			return nil, roleNotFound(c.param("role_name"), b.ID)
		}
		return api.RoleResponse{Role: r.wire(b.ID, false)}, nil
	})
}

// revealRolePassword answers the password: the emulator's projects store passwords
// (store_passwords is true), so it can be revealed.
func (e *Emulator) revealRolePassword(c *call) (int, any, error) {
	return e.readBranch(c, func(_ *project, b *branch) (any, error) {
		r := b.role(c.param("role_name"))
		if r == nil {
			return nil, roleNotFound(c.param("role_name"), b.ID)
		}
		return api.RolePasswordResponse{Password: r.Password}, nil
	})
}

func (e *Emulator) listDatabases(c *call) (int, any, error) {
	return e.readBranch(c, func(_ *project, b *branch) (any, error) {
		return api.DatabasesResponse{Databases: b.wireDatabases()}, nil
	})
}

func (e *Emulator) getDatabase(c *call) (int, any, error) {
	return e.readBranch(c, func(_ *project, b *branch) (any, error) {
		d := b.database(c.param("database_name"))
		if d == nil {
			return nil, errorf(http.StatusNotFound, codeDatabaseNotFound, "database %q not found on branch %s", c.param("database_name"), b.ID)
		}
		return api.DatabaseResponse{Database: d.wire(b.ID)}, nil
	})
}

// readOnly answers the documented calls that would create, change or delete a role or
// a database: the emulator keeps only the defaults, so these are a 405 that says so.
func readOnly(c *call) (int, any, error) {
	c.w.Header().Set("Allow", "GET")
	return 0, nil, errorf(http.StatusMethodNotAllowed, codeMethodNotAllowed,
		"%s %s: the emulator serves the roles and databases of a branch read-only (the ones made with the project, copied to its branches); it does not create, change or delete them",
		c.r.Method, c.route.template)
}
