package api

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Largest page each list accepts (the spec's limit maximum).
const (
	maxProjectsPage   = 400
	maxBranchesPage   = 10000
	maxOperationsPage = 1000
)

// listAll fetches every page of a list. The service may return a cursor on
// the last page, so an empty page ends the list too (as the vendor's SDK
// does), and a cursor seen before ends it rather than looping forever.
func listAll[P any, T any](ctx context.Context, c *Client, path string, maxPage int,
	items func(*P) []T, next func(*P) string) ([]T, error) {
	limit := maxPage
	if c.pageSize > 0 && c.pageSize < maxPage {
		limit = c.pageSize
	}
	var all []T
	seen := map[string]bool{}
	cursor := ""
	// A path may carry query parameters of its own (org_id): pages add theirs.
	path, query, _ := strings.Cut(path, "?")
	fixed, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("api: the query of %s: %w", path, err)
	}
	for {
		q := url.Values{"limit": {strconv.Itoa(limit)}}
		maps.Copy(q, fixed)
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page P
		if _, err := c.call(ctx, http.MethodGet, path+"?"+q.Encode(), nil, &page); err != nil {
			return nil, err
		}
		got := items(&page)
		all = append(all, got...)
		cursor = next(&page)
		if len(got) == 0 || cursor == "" || seen[cursor] {
			return all, nil
		}
		seen[cursor] = true
	}
}

// Path parameters are checked here, so a bad id fails with a clear message
// instead of a 404, and no id can reach another path ("../").
// A resource id is 1 to 60 lowercase letters, digits and dashes
// (validResourceID); an operation id may hold capitals.
var operationID = regexp.MustCompile(`^[0-9A-Za-z-]{1,64}$`)

func checkID(what, id string) error {
	if what == "operation" && operationID.MatchString(id) || what != "operation" && ValidResourceID(id) {
		return nil
	}
	if id == "" {
		return fmt.Errorf("api: the %s id is empty", what)
	}
	return fmt.Errorf("api: %q is not a valid %s id: ids are 1 to 60 lowercase letters, digits and dashes", id, what)
}

// projectPath builds /projects/{projectID}{rest...} where rest alternates
// literal segments and ids named by kind, e.g. "endpoints", endpointID.
func projectPath(projectID string, rest ...pathPart) (string, error) {
	if err := checkID("project", projectID); err != nil {
		return "", err
	}
	p := "/projects/" + projectID
	for _, part := range rest {
		if part.kind != "" {
			if err := checkID(part.kind, part.value); err != nil {
				return "", err
			}
		}
		p += "/" + part.value
	}
	return p, nil
}

type pathPart struct{ kind, value string }

func lit(s string) pathPart              { return pathPart{value: s} }
func idPart(kind, value string) pathPart { return pathPart{kind: kind, value: value} }
