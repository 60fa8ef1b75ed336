package emulator

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/textsafe/textsafetest"
)

// The authentication rules of docs/service.md (Authentication and API keys), on a world of three people:
// alice administers organization acme, bob is a member of it, carol is in no
// organization. acme has two projects; alice and carol each have a personal one.
const (
	alice      = "0b6c7a1e-0000-4000-8000-00000000a11c"
	bob        = "0b6c7a1e-0000-4000-8000-000000000b0b"
	carol      = "0b6c7a1e-0000-4000-8000-0000000ca201"
	aliceKey   = "napi_alice_personal_key_for_tests_0000000000000000000000000000000"
	bobKey     = "napi_bob_personal_key_for_tests_00000000000000000000000000000000"
	carolKey   = "napi_carol_personal_key_for_tests_000000000000000000000000000000"
	acmeShop   = "acme-shop-11111111"
	acmeBlog   = "acme-blog-22222222"
	aliceHome  = "alice-home-33333333"
	carolLab   = "carol-lab-44444444"
	acmeShopBr = "br-acme-shop-main"
)

const peopleWorld = `{
  "format_version": 1,
  "users": [
    {"id": "` + alice + `", "name": "Alice"},
    {"id": "` + bob + `", "name": "Bob"},
    {"id": "` + carol + `", "name": "Carol"}
  ],
  "organizations": [
    {"id": "org-acme", "name": "Acme", "members": [
      {"user_id": "` + alice + `", "role": "admin"},
      {"user_id": "` + bob + `", "role": "member"}
    ]}
  ],
  "api_keys": [
    {"id": 1, "name": "alice", "kind": "personal", "user_id": "` + alice + `", "secret": "` + aliceKey + `"},
    {"id": 2, "name": "bob", "kind": "personal", "user_id": "` + bob + `", "secret": "` + bobKey + `"},
    {"id": 3, "name": "carol", "kind": "personal", "user_id": "` + carol + `", "secret": "` + carolKey + `"}
  ],
  "projects": [
    {"id": "` + acmeShop + `", "org_id": "org-acme", "owner_id": "` + alice + `",
     "branches": [{"id": "` + acmeShopBr + `", "name": "main", "default": true}],
     "endpoints": [{"id": "ep-acme-shop-primary", "branch_id": "` + acmeShopBr + `", "type": "read_write"}]},
    {"id": "` + acmeBlog + `", "org_id": "org-acme", "owner_id": "` + bob + `",
     "branches": [{"id": "br-acme-blog-main", "name": "main", "default": true}]},
    {"id": "` + aliceHome + `", "owner_id": "` + alice + `",
     "branches": [{"id": "br-alice-home-main", "name": "main", "default": true}]},
    {"id": "` + carolLab + `", "owner_id": "` + carol + `",
     "branches": [{"id": "br-carol-lab-main", "name": "main", "default": true}]}
  ]
}`

// newPeople starts an emulator on peopleWorld, kept in a data file in a temp dir.
func newPeople(t *testing.T, opts Options) *service {
	t.Helper()
	opts.DataFile = filepath.Join(t.TempDir(), "world.json")
	if err := os.WriteFile(opts.DataFile, []byte(peopleWorld), 0o600); err != nil {
		t.Fatal(err)
	}
	opts.APIKey = aliceKey
	return newService(t, opts)
}

// visible lists the ids of the projects a key sees.
func (s *service) visible(key string) []string {
	s.t.Helper()
	var out api.ProjectsResponse
	s.callAs(key, "GET", "/projects?limit=400", nil).want(s.t, 200).decode(s.t, &out)
	var ids []string
	for _, p := range out.Projects {
		ids = append(ids, p.ID)
	}
	return ids
}

// newKey creates a key with creator's key at path ("/api_keys" or an organization's)
// and returns its id and secret.
func (s *service) newKey(creator, path string, body map[string]any) (int64, string) {
	s.t.Helper()
	var out api.OrgApiKeyCreateResponse
	s.callAs(creator, "POST", path, body).want(s.t, 200).decode(s.t, &out)
	if out.ID == 0 || !strings.HasPrefix(out.Key, "napi_") || len(out.Key) != 69 {
		s.t.Fatalf("new key: id %d, secret of %d characters; want an id and napi_ + 64 characters", out.ID, len(out.Key))
	}
	return out.ID, out.Key
}

func wantCode(t *testing.T, r reply, status int, code string) api.GeneralError {
	t.Helper()
	ge := r.want(t, status).err(t)
	if ge.Code != code || ge.Message == "" || ge.RequestID == "" {
		t.Errorf("error body %+v, want code %s with a message and a request id", ge, code)
	}
	return ge
}

func TestMissingUnknownOrMalformedKeyIs401(t *testing.T) {
	s := newService(t, Options{})
	const unknown = "napi_unknownkeythatmustnotbeechoed000000000000000000000000000000"
	for _, tc := range []struct{ name, header string }{
		{"no header", ""},
		{"not bearer", "Basic " + s.key},
		{"bearer without a key", "Bearer "},
		{"unknown key", "Bearer " + unknown},
	} {
		r := s.callWithHeader(tc.header, "GET", "/projects")
		ge := wantCode(t, r, 401, codeUnauthorized)
		if strings.Contains(string(r.body), unknown) || strings.Contains(string(r.body), s.key) {
			t.Errorf("%s: the answer echoes a key: %s", tc.name, r.body)
		}
		if !strings.Contains(ge.Message, "API key") && !strings.Contains(ge.Message, "Authorization") {
			t.Errorf("%s: message %q does not say what is wrong", tc.name, ge.Message)
		}
	}
	if n := s.emu.Stats().Statuses["401"]; n != 4 {
		t.Errorf("stats count %d answers 401, want 4", n)
	}
	s.call("GET", "/projects", nil).want(t, 200)
}

func TestKeySecretIsShownOnceAndStoredAsAHash(t *testing.T) {
	s := newPeople(t, Options{})
	id, secret := s.newKey(aliceKey, "/api_keys", map[string]any{"key_name": "ci"})
	if got := s.visible(secret); !slices.Equal(got, s.visible(aliceKey)) {
		t.Errorf("the new personal key sees %v, alice's sees %v", got, s.visible(aliceKey))
	}
	list := s.callAs(aliceKey, "GET", "/api_keys", nil).want(t, 200)
	var items []api.ApiKeysListResponseItem
	list.decode(t, &items)
	if !slices.ContainsFunc(items, func(k api.ApiKeysListResponseItem) bool { return k.ID == id && k.Name == "ci" }) {
		t.Errorf("key %d not in the list %s", id, list.body)
	}
	if strings.Contains(string(list.body), secret) || strings.Contains(string(list.body), `"key"`) {
		t.Errorf("the list shows a secret: %s", list.body)
	}
	data, err := os.ReadFile(s.emu.opts.DataFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{secret, aliceKey, bobKey} {
		if strings.Contains(string(data), k) {
			t.Errorf("the data file holds a secret (%.12s...)", k)
		}
	}
	if info, _ := os.Stat(s.emu.opts.DataFile); info.Mode().Perm() != 0o600 {
		t.Errorf("data file mode %v, want 0600", info.Mode().Perm())
	}
}

func TestRevocationIsImmediateAndPermanent(t *testing.T) {
	s := newPeople(t, Options{})
	id, secret := s.newKey(aliceKey, "/api_keys", map[string]any{"key_name": "ci"})
	s.callAs(secret, "GET", "/projects", nil).want(t, 200)

	var out api.ApiKeyRevokeResponse
	s.callAs(aliceKey, "DELETE", "/api_keys/"+itoa(id), nil).want(t, 200).decode(t, &out)
	if !out.Revoked || out.ID != id {
		t.Errorf("revoke answer %+v", out)
	}
	ge := wantCode(t, s.callAs(secret, "GET", "/projects", nil), 401, codeUnauthorized)
	if !strings.Contains(ge.Message, "revoked") {
		t.Errorf("message %q should say the key was revoked", ge.Message)
	}
	// Revoking again answers the same; nothing brings the key back.
	s.callAs(aliceKey, "DELETE", "/api_keys/"+itoa(id), nil).want(t, 200).decode(t, &out)
	if !out.Revoked {
		t.Error("a second revoke un-revoked the key")
	}
	if strings.Contains(string(s.callAs(aliceKey, "GET", "/api_keys", nil).body), `"id":`+itoa(id)+",") {
		t.Error("the revoked key is still listed")
	}

	// Across a restart from the data file, and even as the console key.
	s.srv.Close()
	must(t, s.emu.Close())
	again, err := New(Options{DataFile: s.emu.opts.DataFile, APIKey: aliceKey})
	must(t, err)
	s2 := &service{t: t, emu: again, srv: serve(t, again), validated: map[string]int{}}
	s2.callAs(secret, "GET", "/projects", nil).want(t, 401)
	s2.callAs(aliceKey, "GET", "/projects", nil).want(t, 200)
	if _, err := New(Options{DataFile: s.emu.opts.DataFile, APIKey: secret}); err == nil || !strings.Contains(err.Error(), "revoked") {
		t.Errorf("starting with a revoked key as the console key: %v, want an error saying it is revoked", err)
	}
}

func TestPersonalKeyIsRevokedOnlyByItsOwner(t *testing.T) {
	s := newPeople(t, Options{})
	id, secret := s.newKey(aliceKey, "/api_keys", map[string]any{"key_name": "mine"})
	wantCode(t, s.callAs(bobKey, "DELETE", "/api_keys/"+itoa(id), nil), 404, codeKeyNotFound)
	wantCode(t, s.callAs(bobKey, "DELETE", "/organizations/org-acme/api_keys/"+itoa(id), nil), 403, codeForbidden)
	wantCode(t, s.callAs(aliceKey, "DELETE", "/organizations/org-acme/api_keys/"+itoa(id), nil), 404, codeKeyNotFound)
	s.callAs(secret, "GET", "/projects", nil).want(t, 200)
	var bobs []api.ApiKeysListResponseItem
	s.callAs(bobKey, "GET", "/api_keys", nil).want(t, 200).decode(t, &bobs)
	if len(bobs) != 1 || bobs[0].ID != 2 {
		t.Errorf("bob lists %+v, want only his own key 2", bobs)
	}
	s.callAs(aliceKey, "DELETE", "/api_keys/"+itoa(id), nil).want(t, 200)
	s.callAs(secret, "GET", "/projects", nil).want(t, 401)
}

func TestPersonalKeySeesOwnAndOrganizationProjects(t *testing.T) {
	s := newPeople(t, Options{})
	for _, tc := range []struct {
		key  string
		want []string
	}{
		{aliceKey, []string{acmeBlog, acmeShop, aliceHome}},
		{bobKey, []string{acmeBlog, acmeShop}},
		{carolKey, []string{carolLab}},
	} {
		if got := s.visible(tc.key); !slices.Equal(got, tc.want) {
			t.Errorf("%.10s... sees %v, want %v", tc.key, got, tc.want)
		}
	}
	// Another's project answers 404, as if it did not exist.
	wantCode(t, s.callAs(carolKey, "GET", "/projects/"+acmeShop, nil), 404, codeProjectNotFound)
	wantCode(t, s.callAs(bobKey, "GET", "/projects/"+aliceHome+"/endpoints", nil), 404, codeProjectNotFound)

	// Leaving the organization ends the access of bob's personal key at once.
	s.hook("DELETE", "/organizations/org-acme/members/"+bob).want(t, 204)
	if got := s.visible(bobKey); len(got) != 0 {
		t.Errorf("after leaving acme, bob sees %v", got)
	}
	wantCode(t, s.callAs(bobKey, "GET", "/projects/"+acmeShop, nil), 404, codeProjectNotFound)
}

func TestOrganizationKeyIsMadeAndRevokedByAdministrators(t *testing.T) {
	s := newPeople(t, Options{})
	orgKeys := "/organizations/org-acme/api_keys"
	ge := wantCode(t, s.callAs(bobKey, "POST", orgKeys, map[string]any{"key_name": "deploy"}), 403, codeForbidden)
	if !strings.Contains(ge.Message, "administrators") {
		t.Errorf("message %q should say only administrators may", ge.Message)
	}
	wantCode(t, s.callAs(carolKey, "POST", orgKeys, map[string]any{"key_name": "x"}), 404, codeNotFound)
	id, orgKey := s.newKey(aliceKey, orgKeys, map[string]any{"key_name": "deploy"})

	// Admin-level access to every project of the organization, nothing else.
	if got := s.visible(orgKey); !slices.Equal(got, []string{acmeBlog, acmeShop}) {
		t.Errorf("the organization key sees %v", got)
	}
	s.callAs(orgKey, "DELETE", "/projects/"+acmeBlog, nil).want(t, 200)
	wantCode(t, s.callAs(orgKey, "GET", "/projects/"+aliceHome, nil), 404, codeProjectNotFound)
	// Keys are made by people: an organization key cannot make keys.
	wantCode(t, s.callAs(orgKey, "POST", "/api_keys", map[string]any{"key_name": "x"}), 403, codeForbidden)
	wantCode(t, s.callAs(orgKey, "POST", orgKeys, map[string]any{"key_name": "x"}), 403, codeForbidden)

	wantCode(t, s.callAs(bobKey, "DELETE", orgKeys+"/"+itoa(id), nil), 403, codeForbidden)
	wantCode(t, s.callAs(bobKey, "GET", orgKeys, nil), 403, codeForbidden)
	var listed []api.OrgApiKeysListResponseItem
	s.callAs(aliceKey, "GET", orgKeys, nil).want(t, 200).decode(t, &listed)
	if len(listed) != 1 || listed[0].ID != id {
		t.Errorf("organization keys %+v, want the one key %d", listed, id)
	}
	s.callAs(aliceKey, "DELETE", orgKeys+"/"+itoa(id), nil).want(t, 200)
	s.callAs(orgKey, "GET", "/projects", nil).want(t, 401)
}

func TestProjectScopedKey(t *testing.T) {
	s := newPeople(t, Options{OpDelay: -1})
	orgKeys := "/organizations/org-acme/api_keys"
	// Any member makes one, for a project of the organization.
	wantCode(t, s.callAs(bobKey, "POST", orgKeys, map[string]any{"key_name": "x", "project_id": aliceHome}), 404, codeProjectNotFound)
	id, key := s.newKey(bobKey, orgKeys, map[string]any{"key_name": "shop-ci", "project_id": acmeShop})

	// It manages its project only, and lists none: it reaches its project by id.
	ge := wantCode(t, s.callAs(key, "GET", "/projects", nil), 403, codeForbidden)
	if !strings.Contains(ge.Message, "cannot list projects") || !strings.Contains(ge.Message, acmeShop) {
		t.Errorf("a project-scoped key's list: %q does not say it cannot list and which project it reaches", ge.Message)
	}
	s.callAs(key, "GET", "/projects/"+acmeShop+"/endpoints", nil).want(t, 200)
	s.callAs(key, "POST", "/projects/"+acmeShop+"/endpoints",
		map[string]any{"endpoint": map[string]any{"branch_id": acmeShopBr, "type": "read_only"}}).want(t, 201)
	wantCode(t, s.callAs(key, "GET", "/projects/"+acmeBlog, nil), 404, codeProjectNotFound)

	// It cannot delete its project, create projects, or act on the organization.
	for _, tc := range []struct{ method, path, want string }{
		{"DELETE", "/projects/" + acmeShop, "delete its project"},
		{"POST", "/projects", "create projects"},
		{"POST", orgKeys, "organization"},
		{"GET", orgKeys, "organization"},
		{"POST", "/api_keys", "create API keys"},
	} {
		var body any
		if tc.method == "POST" {
			body = map[string]any{"key_name": "x", "project": map[string]any{"name": "x"}}
		}
		ge := wantCode(t, s.callAs(key, tc.method, tc.path, body), 403, codeForbidden)
		if !strings.Contains(ge.Message, tc.want) {
			t.Errorf("%s %s: message %q does not say it cannot %s", tc.method, tc.path, ge.Message, tc.want)
		}
	}
	s.callAs(aliceKey, "GET", "/projects/"+acmeShop, nil).want(t, 200)

	// Administrators revoke it; the member who made it cannot.
	wantCode(t, s.callAs(bobKey, "DELETE", orgKeys+"/"+itoa(id), nil), 403, codeForbidden)
	s.callAs(key, "GET", "/projects/"+acmeShop, nil).want(t, 200)
	id2, key2 := s.newKey(bobKey, orgKeys, map[string]any{"key_name": "shop-cd", "project_id": acmeShop})
	s.callAs(aliceKey, "DELETE", orgKeys+"/"+itoa(id2), nil).want(t, 200)
	wantCode(t, s.callAs(key2, "GET", "/projects/"+acmeShop, nil), 401, codeUnauthorized)

	// It stops working when its project leaves the organization.
	s.hook("DELETE", "/projects/"+acmeShop+"/organization").want(t, 204)
	wantCode(t, s.callAs(key, "GET", "/projects/"+acmeShop, nil), 401, codeUnauthorized)
	if got := s.visible(aliceKey); !slices.Contains(got, acmeShop) {
		t.Errorf("alice, the owner, lost the transferred project: %v", got)
	}
	if got := s.visible(bobKey); slices.Contains(got, acmeShop) {
		t.Errorf("bob still sees the project that left the organization: %v", got)
	}
}

// The request log has one line per request and never a key, good or bad.
func TestLogNeverHoldsAKey(t *testing.T) {
	var log strings.Builder
	var mu sync.Mutex
	s := newService(t, Options{Log: writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return log.Write(p)
	})})
	const wrong = "napi_wrongkeythatmustnotbelogged000000000000000000000000000000000"
	s.call("GET", "/projects", nil).want(t, 200)
	s.callAs(wrong, "GET", "/projects?limit=3", nil).want(t, 401)
	var key api.ApiKeyCreateResponse
	s.call("POST", "/api_keys", map[string]any{"key_name": "ci"}).want(t, 200).decode(t, &key)
	mu.Lock()
	defer mu.Unlock()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "GET /api/v2/projects 401 ") || !strings.Contains(lines[2], "POST /api/v2/api_keys 200 ") {
		t.Errorf("log:\n%s", log.String())
	}
	for _, k := range []string{s.key, wrong, key.Key} {
		if strings.Contains(log.String(), k) {
			t.Errorf("the log holds a key:\n%s", log.String())
		}
	}
}

// A request's path is the client's text, decoded: the log shows it escaped,
// never as terminal control.
func TestLogShowsPathsEscaped(t *testing.T) {
	var log strings.Builder
	var mu sync.Mutex
	s := newService(t, Options{Log: writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return log.Write(p)
	})})
	s.call("GET", "/projects/"+url.PathEscape(textsafetest.Name), nil).want(t, 404)
	mu.Lock()
	defer mu.Unlock()
	textsafetest.Terminal(t, "the emulator's request log", log.String())
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
