package english

import (
	"fmt"
	"strings"
)

// Or joins words as a sentence offers a choice: "plan", "plan or apply",
// "plan, apply or destroy" (no comma before the last, as every message of
// neonform writes it).
func Or(words []string) string {
	return list(words, "or")
}

// And joins words as a sentence counts them: "a", "a and b", "a, b and c".
func And(words []string) string {
	return list(words, "and")
}

func list(words []string, conj string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	last := len(words) - 1
	return strings.Join(words[:last], ", ") + " " + conj + " " + words[last]
}

// FirstFew lists at most n of words, with commas, and counts the rest:
// "shop, web, books" or "shop, web and 3 more". For a message that names
// examples of a list that may be long.
func FirstFew(words []string, n int) string {
	if len(words) <= n {
		return strings.Join(words, ", ")
	}
	return strings.Join(words[:n], ", ") + fmt.Sprintf(" and %d more", len(words)-n)
}
