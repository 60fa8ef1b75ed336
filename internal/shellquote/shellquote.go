// Package shellquote writes words for a POSIX shell, so that a command
// neonform suggests (`neonform state rm 'shop.main.reports["eu"]'`) can be
// pasted as it is: an address with a key holds brackets and quotes, which a
// shell would otherwise glob or strip.
package shellquote

import "strings"

// Word quotes w when it has anything but the characters that never need it.
func Word(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
