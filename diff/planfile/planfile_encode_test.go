package planfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// The plan file, written a list element at a time, is byte for byte what
// json.MarshalIndent makes of the plan.
func TestPlanFileIsMarshalIndent(t *testing.T) {
	cfg, st, live := plantest.BusyScenario(false)
	p, diags := diff.Build(cfg, st, live, plantest.Opts)
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	p.Warnings = []string{"a <warning> & more"} // escaped as Marshal escapes it
	want, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("WriteFile differs from MarshalIndent (-want +got):\n%s", d)
	}
	var buf bytes.Buffer
	if err := RenderJSON(&buf, p); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), buf.String()); d != "" {
		t.Errorf("RenderJSON differs from MarshalIndent (-want +got):\n%s", d)
	}
}

// The indenter indents what encoding/json writes as json.Indent does:
// brackets, commas, colons and escaped quotes inside strings stay as they
// are, empty objects and lists stay on one line, nested ones take a level
// each; whether the value comes in one piece (as Encode writes it, with a
// newline after) or a byte at a time.
func TestIndenterIsIndent(t *testing.T) {
	for _, src := range []string{
		`{"a":"x\"],{:\\","b":[],"c":{},"d":[{"e":[1,2.5e-7,null,true]},{}],"f":"\\","g":"\u003c"}`,
		`[]`, `{}`, `"s"`, `12`, `[[[]],[{}],{"":[""]}]`,
		`{"k":{"l":{"m":[{"n":"]"}]}}}`,
	} {
		for _, prefix := range []string{"", "    "} {
			var want bytes.Buffer
			if err := json.Indent(&want, []byte(src), prefix, "  "); err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			for _, piece := range []int{len(src) + 1, 1} {
				if got := indented(src+"\n", prefix, piece); got != want.String() {
					t.Errorf("indenter(%s, %q), %d bytes a write:\n%s\nwant (json.Indent):\n%s", src, prefix, piece, got, want.String())
				}
			}
		}
	}
}

// indented is what an indenter at prefix writes of src, given piece bytes
// a write.
func indented(src, prefix string, piece int) string {
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	in := indenter{w: w, indent: "  "}
	in.reset(prefix)
	for len(src) > 0 {
		n := min(piece, len(src))
		if _, err := in.Write([]byte(src[:n])); err != nil {
			return err.Error()
		}
		src = src[n:]
	}
	w.Flush()
	return out.String()
}

type upper string

func (u *upper) MarshalJSON() ([]byte, error) { return json.Marshal("U:" + string(*u)) }

// The encoder writes any struct as MarshalIndent does: omitempty fields,
// empty and nil lists, lists of values with a method of the pointer, and
// (marshalled whole) structs it does not stream.
func TestElementEncoderIsMarshalIndent(t *testing.T) {
	type inner struct {
		A int               `json:"a"`
		M map[string]string `json:"m"`
	}
	type streamed struct {
		Skip     string          `json:"-"`
		Empty    string          `json:"empty,omitempty"`
		Zero     float64         `json:"zero,omitempty"`
		Set      int             `json:"set,omitempty"`
		Nil      []inner         `json:"nil"`
		None     []inner         `json:"none"`
		List     []inner         `json:"list"`
		Methods  []upper         `json:"methods"`
		Raw      json.RawMessage `json:"raw"`
		Inner    inner           `json:"inner"`
		Time     time.Time       `json:"time"`
		Strings  []string        `json:"strings"`
		unexport int
	}
	type embedded struct {
		inner
		List []inner `json:"list"`
	}
	type quoted struct {
		N    int     `json:"n,string"`
		List []inner `json:"list"`
	}
	list := []inner{{1, map[string]string{"b": "2", "a": "1"}}, {2, nil}}
	for _, v := range []any{
		&streamed{Skip: "x", Set: 3, None: []inner{}, List: list, Methods: []upper{"a", "b"}, Raw: json.RawMessage(`{"k":[1,2]}`),
			Inner: list[0], Time: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), Strings: []string{"<&>"}, unexport: 1},
		&struct{}{},
		&struct {
			S string `json:"s,omitempty"`
		}{},
		&embedded{inner: list[0], List: list},
		&quoted{N: 4, List: list},
	} {
		want, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		e := newElementEncoder(&buf)
		if err := e.object(reflect.ValueOf(v).Elem()); err != nil {
			t.Fatal(err)
		}
		e.w.Flush()
		if d := cmp.Diff(string(want), buf.String()); d != "" {
			t.Errorf("%T (-MarshalIndent +encoder):\n%s", v, d)
		}
	}
}
