// Package english holds the few rules of English that neonform's messages
// and views share.
package english

import (
	"fmt"
	"strconv"
)

// Plural is n with the singular or plural form it takes:
// Plural(2, "file is", "files are") = "2 files are".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Thousands writes n with commas between groups of three digits: 10,000.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
