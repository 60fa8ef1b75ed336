package command

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/atomicfile"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/english"
)

// fmtOptions are the inputs of neonform fmt.
type fmtOptions struct {
	// Paths are directories and files; none means the current directory; "-" is standard input.
	Paths                  []string
	Check, Diff, Recursive bool
	// NoWrite (-write=false) changes no file; NoList (-list=false) names none.
	NoWrite, NoList bool
	// Env is the environment (NO_COLOR, -no-color) errors are printed in.
	Env            environment
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// formatted is one file read and formatted in memory.
type formatted struct {
	path          string
	before, after []byte
	mode          fs.FileMode
}

// runFmt formats the files o names, or standard input, as fmt was asked.
func runFmt(o fmtOptions) error {
	for _, p := range o.Paths {
		if p == "-" && len(o.Paths) > 1 {
			return errors.New(`"-" (standard input) must be the only argument: neonform fmt - < main.hcl`)
		}
	}
	if len(o.Paths) == 1 && o.Paths[0] == "-" {
		return fmtStdin(o)
	}
	paths, err := fmtTargets(o.Paths, o.Recursive)
	if err != nil {
		return err
	}

	// Format everything in memory first, so a syntax error anywhere leaves every file as it was.
	var results []formatted
	var diags diag.Diagnostics
	files := map[string]*hcl.File{}
	for _, path := range paths {
		// Read first: a file that cannot be read (a broken link, a directory
		// named x.hcl) gets the loader's own explanation.
		src, rd := config.ReadFile(path, "Configuration file")
		if rd != nil {
			printDiagnostics(o.Stderr, rd, nil, o.Env)
			return &exitError{code: 1, msg: "Nothing was formatted."}
		}
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		out, d := config.Format(src, path)
		diags = append(diags, d...)
		if d.HasErrors() {
			files[path] = &hcl.File{Bytes: src}
			continue
		}
		results = append(results, formatted{path, src, out, info.Mode().Perm()})
	}
	if diags.HasErrors() {
		printDiagnostics(o.Stderr, diags, files, o.Env)
		return &exitError{code: 1, msg: "Nothing was formatted: fix the syntax errors above first."}
	}

	var changed []string
	for _, r := range results {
		if bytes.Equal(r.before, r.after) {
			continue
		}
		changed = append(changed, r.path)
		switch {
		case o.Diff:
			fmt.Fprint(o.Stdout, unifiedDiff(filepath.ToSlash(r.path), string(r.before), string(r.after)))
		case !o.NoList:
			fmt.Fprintln(o.Stdout, r.path)
		}
		if !o.Check && !o.NoWrite {
			// Atomically, so that an interrupted fmt leaves each file as it
			// was or formatted, never cut short; with the mode it had.
			if err := atomicfile.WriteBytes(r.path, r.after, atomicfile.Options{Mode: r.mode,
				Rule: "fmt rewrites only regular files"}); err != nil {
				return fmt.Errorf("writing %s: %w", r.path, err)
			}
		}
	}
	if o.Check && len(changed) > 0 {
		return &exitError{code: 3, msg: fmt.Sprintf("%s not formatted. Run: neonform fmt%s",
			english.Plural(len(changed), "file is", "files are"), fmtFixArgs(o))}
	}
	return nil
}

// fmtStdin formats standard input: the result goes to standard output, or
// with -check/-diff only the verdict or the diff does.
func fmtStdin(o fmtOptions) error {
	// One byte more than a configuration file may hold, for Format to refuse.
	src, err := io.ReadAll(io.LimitReader(o.Stdin, config.MaxBytes+1))
	if err != nil {
		return err
	}
	const name = "<stdin>"
	out, diags := config.Format(src, name)
	if diags.HasErrors() {
		printDiagnostics(o.Stderr, diags, map[string]*hcl.File{name: {Bytes: src}}, o.Env)
		return &exitError{code: 1}
	}
	same := bytes.Equal(src, out)
	switch {
	case o.Diff:
		fmt.Fprint(o.Stdout, unifiedDiff("stdin", string(src), string(out)))
	case !o.Check:
		_, err = o.Stdout.Write(out)
	}
	if o.Check && !same {
		return &exitError{code: 3, msg: "standard input is not formatted"}
	}
	return err
}

// fmtTargets lists the files to format: the *.hcl and *.vars files of each
// directory (and below it with recursive), and each file named as it is.
func fmtTargets(args []string, recursive bool) ([]string, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, arg := range args {
		info, err := os.Stat(arg)
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := os.Lstat(arg); lerr == nil {
				add(filepath.Clean(arg)) // a broken link: its reader says so
				continue
			}
			return nil, fmt.Errorf("%s: no such file or directory", arg)
		}
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(filepath.Clean(arg))
			continue
		}
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path == arg {
					return nil
				}
				// .git, .neonform (the embedded emulator's data), editor folders.
				if !recursive || strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			// As the loader does: every *.hcl and *.vars but a directory, links
			// too, so that one that cannot be read is said, not skipped.
			if !d.IsDir() && isConfigFileName(d.Name()) {
				add(path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// isConfigFileName reports whether a file in a directory is one fmt rewrites:
// configurations (*.hcl) and variable files (*.vars).
func isConfigFileName(name string) bool {
	return strings.HasSuffix(name, ".hcl") || strings.HasSuffix(name, ".vars")
}

// fmtFixArgs repeats the paths and -recursive of a -check run, for the hint
// that says which command fixes it.
func fmtFixArgs(o fmtOptions) string {
	s := ""
	if o.Recursive {
		s += " -recursive"
	}
	for _, p := range o.Paths {
		s += " " + p
	}
	return s
}
