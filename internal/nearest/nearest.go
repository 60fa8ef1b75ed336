// Package nearest finds the name a mistyped one was meant to be, for the
// "Did you mean" of messages: a command, a flag, an address. It is shared by
// the CLI and the plan model, which both refuse names that name nothing; the
// plan model only chooses with it, and records the names as a diag.Near that
// the views word.
package nearest

import (
	"strconv"
	"strings"

	"github.com/agext/levenshtein"
)

// Name is the name nearest to given within two edits, the first of those as
// near, or a name that given starts (pla for plan); "" when none is near.
func Name(given string, names []string) string {
	if near := Names(given, names); len(near) > 0 {
		return near[0]
	}
	return ""
}

// Names are the names nearest to given within two edits, all of those as
// near as the nearest, in names' order; or else the first name that given
// starts. None when nothing is near.
func Names(given string, names []string) []string {
	var best []string
	bestDist := 3
	for _, n := range names {
		switch d := levenshtein.Distance(given, n, nil); {
		case d < bestDist:
			best, bestDist = []string{n}, d
		case d == bestDist && best != nil:
			best = append(best, n)
		}
	}
	if best == nil && len(given) >= 2 {
		for _, n := range names {
			if strings.HasPrefix(n, given) {
				return []string{n}
			}
		}
	}
	return best
}

// Quoted is names each quoted for a message (`"main"`), for a list that
// internal/english joins: `"main" or "mainline"`.
func Quoted(names []string) []string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	return quoted
}
