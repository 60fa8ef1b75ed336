package state

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
)

// What a state's addresses must be, checked when a state is pushed and
// whenever one is read: each an address as configuration writes it
// (config.ParseAddress), or a deposed one's (DeposedAddress), and each
// once. An address such as "../../etc/x" or "x y\nz" was taken, then
// planned as a delete that `state rm` could not name; a second
// "shop.main.primary" in the document replaced the first without a word
// (its endpoint id, its prevent_destroy).

// checkAddress refuses an address no compute block could have.
func checkAddress(addr string) error {
	if simpleAddress(addr) {
		return nil
	}
	base := addr
	if b, _, deposed := Deposed(addr); deposed {
		base = b
	}
	if _, _, _, err := config.ParseAddress(base); err != nil {
		return diag.ErrorAt(addr, "Invalid address in the state",
			fmt.Sprintf("the state records a compute at %s, which is not an address: %v. Rename the entry to the address of its compute block, or remove it, in the stored state by hand", strconv.Quote(addr), err))
	}
	return nil
}

// simpleAddress reports whether addr is three labels without keys
// (shop.main.primary), as nearly every address is: checked without
// config's parser, which a state of 100,000 computes would feel.
func simpleAddress(addr string) bool {
	parts, start := 0, 0
	for i := 0; i <= len(addr); i++ {
		if i < len(addr) && addr[i] != '.' {
			c := addr[i]
			if !(c >= 'a' && c <= 'z' || i > start && (c >= '0' && c <= '9' || c == '_' || c == '-')) {
				return false
			}
			continue
		}
		if i == start {
			return false
		}
		parts++
		start = i + 1
	}
	return parts == 3
}

// duplicateName is the first member name an object of the JSON document
// holds twice ("shop.main.primary"), and the object's place in it
// ("/computes"); found is false when there is none (or the document is not
// JSON, which decoding reports).
func duplicateName(data []byte) (name, in string, found bool) {
	err := jsontext.NewDecoder(bytes.NewReader(data)).SkipValue()
	var se *jsontext.SyntacticError
	if errors.As(err, &se) && se.Err == jsontext.ErrDuplicateName {
		return se.JSONPointer.LastToken(), string(se.JSONPointer.Parent()), true
	}
	return "", "", false
}

// checkDuplicates refuses a state document that names a member twice.
func checkDuplicates(data []byte, source, fix string) error {
	name, in, found := duplicateName(data)
	if !found {
		return nil
	}
	where := "in " + strconv.Quote(in)
	if in == "" {
		where = "at its top"
	}
	if in == "/computes" {
		return fmt.Errorf("%s records the compute %s twice; a JSON object keeps only the last, which would drop the other without a word. Keep one of the two entries; it was left untouched", source, strconv.Quote(name))
	}
	return fmt.Errorf("%s has the key %s twice %s; it was left untouched: %s", source, strconv.Quote(name), where, fix)
}
