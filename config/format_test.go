package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

func TestFormatLayout(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "indents blocks and aligns equals signs",
			in: `project "shop" {
id="dark-sun-46453911"
  branch "main" {
 compute "primary" {
 min_cu=0.25
    max_cu   =  4
 suspend_timeout="5m"
 }
 }
}
`,
			want: `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      min_cu          = 0.25
      max_cu          = 4
      suspend_timeout = "5m"
    }
  }
}
`,
		},
		{
			// fmt reorders nothing: for_each stays where it is written (first,
			// as Terraform writes it) and aligns with the rest.
			name: "aligns a block with for_each and each",
			in: `compute "reports" {
for_each=toset(["eu","us"])
  type = "read_only"
    name="reports-${each.key}"
 size   = lookup({eu=2},each.key,1)
}
`,
			want: `compute "reports" {
  for_each = toset(["eu", "us"])
  type     = "read_only"
  name     = "reports-${each.key}"
  size     = lookup({ eu = 2 }, each.key, 1)
}
`,
		},
		{
			name: "keeps every kind of comment",
			in: `# what this file is for
// another line comment
/* a block
   comment */
variable "replica_cu" {
default = 1 # the smallest that keeps up
  type=number // numbers only
}
`,
			want: `# what this file is for
// another line comment
/* a block
   comment */
variable "replica_cu" {
  default = 1      # the smallest that keeps up
  type    = number // numbers only
}
`,
		},
		{
			name: "at most one blank line, none at the start, one newline at the end",
			in:   "\n\n\na = 1\n\n\n\nb = 2   \n\n\n",
			want: "a = 1\n\nb = 2\n",
		},
		{
			name: "blank lines after a comment are collapsed too",
			in:   "# header\n\n\n\na = 1\n",
			want: "# header\n\na = 1\n",
		},
		{
			name: "heredoc content is left exactly as written",
			in:   "x = <<EOT\n  keep   this\n\n\n\n   and this  \nEOT\n",
			want: "x = <<EOT\n  keep   this\n\n\n\n   and this  \nEOT\n",
		},
		{
			name: "a file without a final newline gets one",
			in:   `a = "x"`,
			want: "a = \"x\"\n",
		},
		{
			name: "CRLF files keep CRLF",
			in:   "a=1\r\nbb=2\r\n\r\n\r\n",
			want: "a  = 1\r\nbb = 2\r\n",
		},
		{
			name: "an empty file stays empty",
			in:   "\n\n",
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := Format([]byte(tt.in), "test.hcl")
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %s", diags.String())
			}
			if string(got) != tt.want {
				t.Errorf("Format:\n%s\nwant:\n%s", got, tt.want)
			}
			again, _ := Format(got, "test.hcl")
			if string(again) != string(got) {
				t.Errorf("second Format changed the file:\n%s\nto:\n%s", got, again)
			}
		})
	}
}

func TestFormatRefusesBrokenSyntax(t *testing.T) {
	src := "project \"shop\" {\n  id = \"dark-sun-46453911\"\n  branch \"main\" {\n    max_cu = \n  }\n"
	got, diags := Format([]byte(src), "broken.hcl")
	if !diags.HasErrors() {
		t.Fatalf("Format accepted a file that does not parse; returned:\n%s", got)
	}
	if got != nil {
		t.Errorf("Format returned output for a broken file: %q", got)
	}
	d := diags[0]
	if d.Range == nil || d.Range.Filename != "broken.hcl" || d.Range.Start.Line != 4 {
		t.Errorf("diagnostic should point at broken.hcl line 4, got %+v", d.Range)
	}
}

// TestFormatIdempotentOnRepoFiles formats every HCL and var file the project
// ships (examples, test configs, and the files inside the CLI scenarios) twice:
// the second pass must change nothing. The examples must already be formatted.
func TestFormatIdempotentOnRepoFiles(t *testing.T) {
	checked := 0
	check := func(name string, src []byte, mustBeFormatted bool) {
		once, diags := Format(src, name)
		if diags.HasErrors() {
			return // deliberately broken syntax (invalid test configs)
		}
		twice, diags := Format(once, name)
		if diags.HasErrors() {
			t.Errorf("%s: formatted output does not parse: %s", name, diags.String())
			return
		}
		if string(twice) != string(once) {
			t.Errorf("%s: formatting twice changed the file again:\n%s\nthen:\n%s", name, once, twice)
		}
		if mustBeFormatted && string(once) != string(src) {
			t.Errorf("%s is not formatted; run: neonform fmt -recursive examples", name)
		}
		checked++
	}
	for _, root := range []string{"../examples", "../testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			switch {
			case isConfigFile(path):
				check(path, src, root == "../examples")
			case strings.HasSuffix(path, ".txtar"):
				for _, f := range txtar.Parse(src).Files {
					if isConfigFile(f.Name) {
						check(path+":"+f.Name, f.Data, false)
					}
				}
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("found no .hcl or .vars file under examples/ or testdata/")
	}
	t.Logf("checked %d files", checked)
}

func isConfigFile(name string) bool {
	return strings.HasSuffix(name, ".hcl") || strings.HasSuffix(name, ".vars")
}
