package command

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdJSONSet edits a JSON file as a person with an editor would:
//
//	jsonset FILE PATH VALUE
//
// sets the value at PATH (keys and list indexes joined by /, such as
// steps/0/body/endpoint/autoscaling_limit_max_cu) to VALUE, a JSON value, and
// writes the file back indented.
//
//	jsonset -delete FILE PATH
//
// removes the key or list element at PATH instead.
func cmdJSONSet(ts *testscript.TestScript, neg bool, args []string) {
	remove := len(args) == 3 && args[0] == "-delete"
	if remove {
		args = append(args[1:], "null")
	}
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonset FILE PATH VALUE, or jsonset -delete FILE PATH")
	}
	path := ts.MkAbs(args[0])
	raw, err := os.ReadFile(path)
	ts.Check(err)
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers are written back as they were
	ts.Check(dec.Decode(&doc))
	var value any
	ts.Check(json.Unmarshal([]byte(args[2]), &value))
	keys := strings.Split(args[1], "/")
	at := doc
	var parent func(any) // sets the node at hand in its parent
	for i, k := range keys {
		last := i == len(keys)-1
		switch node := at.(type) {
		case map[string]any:
			switch {
			case last && remove:
				delete(node, k)
			case last:
				node[k] = value
			default:
				at, parent = node[k], func(v any) { node[k] = v }
			}
		case []any:
			n, err := strconv.Atoi(k)
			if err != nil || n < 0 || n >= len(node) {
				ts.Fatalf("jsonset: %s: no element %q in a list of %d", args[1], k, len(node))
			}
			switch {
			case last && remove:
				if parent == nil {
					ts.Fatalf("jsonset: %s: the document itself is the list", args[1])
				}
				parent(append(node[:n:n], node[n+1:]...))
			case last:
				node[n] = value
			default:
				at, parent = node[n], func(v any) { node[n] = v }
			}
		default:
			ts.Fatalf("jsonset: %s: %q is inside neither an object nor a list", args[1], k)
		}
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(path, append(out, '\n'), 0o600))
}
