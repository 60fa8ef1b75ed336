// Package english holds the few rules of English that neonform's messages
// and views share.
package english

import "fmt"

// Plural is n with the singular or plural form it takes:
// Plural(2, "file is", "files are") = "2 files are".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
