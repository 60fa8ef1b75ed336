package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/shellquote"
)

// Load reads every *.hcl file in dir (order does not matter), evaluates and checks
// everything that needs no network, and returns the model.
//
// Errors come back all together as diag.Diagnostics, each with its file, line and
// column, a short summary and a detail that says how to fix it, sorted by position.
// When diags has errors the model is partial: only Dir and Files are reliable.
// cfg.Files holds every file that parsed (including -var-file files), so the caller
// can print diagnostics with their source lines: their bytes, and their syntax
// trees only when the files were read all at once because one has syntax
// errors, or a -var-file's with diagnostics (loadByFile, dropSyntaxTrees).
func Load(dir string, opts Options) (*Config, diag.Diagnostics) {
	cfg, diags := loadDir(dir, opts)
	return cfg, diag.FromHCL(diags)
}

// loadDir is Load in hcl's diagnostics, which the loader builds.
func loadDir(dir string, opts Options) (*Config, hcl.Diagnostics) {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return &Config{Dir: dir, Files: map[string]*hcl.File{}}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Configuration directory is a file",
			Detail: fmt.Sprintf("%s is a file, and neonform reads every *.hcl file of a directory, so that a configuration can be split into files. Pass the directory that holds it: %s.",
				dir, filepath.Dir(dir)),
		}}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &Config{Dir: dir, Files: map[string]*hcl.File{}}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read configuration directory",
			Detail:   fmt.Sprintf("%v. Pass the directory that holds the *.hcl files, or run neonform inside it.", err),
		}}
	}
	files := map[string][]byte{}
	var diags hcl.Diagnostics
	b := newBudget()
	for _, e := range entries {
		name := e.Name()
		if !configFileName(name) || editorHolds(opts, name) {
			continue
		}
		// Every one is read, or the run stops (unreadable.go): a link that
		// leads nowhere, a directory named x.hcl, a file that cannot be read.
		src, d := b.read(filepath.Join(dir, name), configurationFile)
		if d != nil {
			diags = append(diags, d)
			continue
		}
		files[name] = src
	}
	diags = append(diags, openFiles(dir, files, opts.Open, b)...)
	if diags.HasErrors() {
		// A file neonform will not read makes the rest of the configuration
		// incomplete: checking it would only add errors about what is missing.
		return &Config{Dir: dir, Files: map[string]*hcl.File{}}, diags
	}
	if len(files) == 0 {
		example := "path/to/config"
		if opts.KnownDir != "" {
			example = shellquote.Word(opts.KnownDir)
		}
		detail := fmt.Sprintf("neonform reads the *.hcl files of %s and found none. Run it in the directory that holds your configuration, or pass that directory, as in: neonform validate %s.",
			displayDir(dir), example)
		if tf := terraformFiles(entries); len(tf) > 0 {
			detail = fmt.Sprintf("neonform reads the *.hcl files of %s and found none; it does not read Terraform's files (%s). "+
				"Its configuration is *.hcl files with project, branch and compute blocks (docs/configuration.md); "+
				"to write them from the computes a project has: neonform generate -project PROJECT_ID.",
				displayDir(dir), strings.Join(tf, ", "))
		}
		return &Config{Dir: dir, Files: map[string]*hcl.File{}}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No configuration files",
			Detail:   detail,
		}}
	}
	return loadSources(dir, files, opts, b)
}

// terraformFiles are the names of Terraform's configuration files among
// entries (at most three, then "..."): a directory of them is the likely
// mistake of a team coming from Terraform.
func terraformFiles(entries []os.DirEntry) []string {
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".tf") && !strings.HasSuffix(n, ".tf.json") {
			continue
		}
		if len(names) == 3 {
			return append(names, "...")
		}
		names = append(names, n)
	}
	return names
}

// configFileName is a *.hcl file that is not hidden or an editor's backup.
func configFileName(name string) bool {
	return strings.HasSuffix(name, ".hcl") && !strings.HasPrefix(name, ".") &&
		!strings.HasPrefix(name, "#") && !strings.HasSuffix(name, "~")
}

func displayDir(dir string) string {
	if dir == "" || dir == "." {
		return "the current directory"
	}
	return dir
}

// LoadSources is Load on explicit file contents, by name (for tests, the fuzz target,
// and callers that have the files in memory). A name is joined to dir to make the
// file name that diagnostics and cfg.Files use.
func LoadSources(dir string, files map[string][]byte, opts Options) (*Config, diag.Diagnostics) {
	cfg, diags := loadSources(dir, files, opts, nil)
	return cfg, diag.FromHCL(diags)
}

// loadSources loads files with what is left of b, the limits of one
// configuration; with b nil, the files are charged to a new budget first.
func loadSources(dir string, files map[string][]byte, opts Options, b *budget) (*Config, hcl.Diagnostics) {
	var tooLargeFile string
	if b == nil {
		b = newBudget()
		for _, name := range sortedNames(files) {
			if !b.take(len(files[name])) && tooLargeFile == "" {
				tooLargeFile = name
			}
		}
	}
	if tooLargeFile != "" {
		return newLoader(dir, opts, b).cfg, hcl.Diagnostics{tooLarge(tooLargeFile)}
	}
	before := *b
	l := newLoader(dir, opts, b)
	if !l.loadByFile(files) {
		*b = before
		l = newLoader(dir, opts, b)
		l.load(files)
	}
	return l.finish()
}

// finish completes the diagnostics and returns what the load found.
func (l *loader) finish() (*Config, hcl.Diagnostics) {
	if l.evalBudget.interrupted {
		// Asked to stop: what was not evaluated is not a mistake.
		l.cfg.treesGone()
		return l.cfg, hcl.Diagnostics{l.evalBudget.stopped}
	}
	l.explainEmptyEnv()
	l.hideSecrets()
	sortDiagnostics(l.diags)
	if len(l.diags) == 0 {
		l.cfg.dropSyntaxTrees()
	}
	return l.cfg, dropRepeats(l.diags)
}

func newLoader(dir string, opts Options, b *budget) *loader {
	l := &loader{
		budget:    b,
		opts:      opts,
		cfg:       &Config{Dir: dir, Files: map[string]*hcl.File{}, VarFiles: map[string]bool{}},
		environ:   parseEnviron(opts.Environ),
		vars:      map[string]*variable{},
		missing:   map[string]bool{},
		locals:    map[string]*local{},
		bad:       map[*Compute]map[string]bool{},
		badBranch: map[*Branch]bool{},
		idRange:   map[any]hcl.Range{},
	}
	l.evalBudget = newEvalBudget(opts.Context)
	l.functions = boundedFunctions(functions(l.environ), l.evalBudget)
	l.evalBudget.functions = l.functions
	return l
}

// treesGone gives each file without a syntax tree an empty one, once the
// load was interrupted: the printer of the diagnostics parses a file with
// none to name the blocks a diagnostic is in, seconds for one at the 8 MiB
// limit after the interrupt, where the run is to exit within a second
// (docs/apply.md, Interrupting). The interrupt's diagnostic then names no
// block.
func (c *Config) treesGone() {
	for name, f := range c.Files {
		if f.Body == nil {
			c.Files[name] = &hcl.File{Bytes: f.Bytes, Body: &hclsyntax.Body{}}
		}
	}
}

// dropSyntaxTrees keeps only the bytes of the files once the configuration
// is decoded: nothing reads the trees after, and with thousands of projects
// they are several times the size of the model (docs/PERFORMANCE.md). A
// diagnostic found later (at plan time) still gets its source line from the
// bytes; the printer parses the file again to name the enclosing blocks.
// With diagnostics, they are printed at once, from the trees. (The files of
// the configuration are read a file at a time and keep no tree from the
// start, see loadByFile.)
func (c *Config) dropSyntaxTrees() {
	for name, f := range c.Files {
		c.Files[name] = &hcl.File{Bytes: f.Bytes}
	}
}

// loader holds the state of one load. Phases run in a fixed order because each needs
// the one before: variables, then locals, then everything that may use them.
type loader struct {
	opts   Options
	budget *budget
	// evalBudget is what evaluating expressions has left (evalbudget.go).
	evalBudget *evalBudget
	cfg        *Config
	diags      hcl.Diagnostics
	environ    map[string]string
	functions  map[string]function.Function

	vars     map[string]*variable
	varOrder []string
	// missing holds the variables without a value when Options.SettingsOnly lets
	// them be: an error only if the neonform block needs one.
	missing    map[string]bool
	locals     map[string]*local
	localOrder []string
	// ctx is nil until variables and locals have values; eval then accepts literals only.
	ctx *hcl.EvalContext
	// each is true while an instance of a block with for_each is decoded, when
	// ctx has each.key and each.value (foreach.go).
	each bool
	// bad records, per compute, the attributes whose value was invalid, so checks
	// that need them are skipped instead of piling errors on one mistake.
	bad map[*Compute]map[string]bool
	// badBranch marks branches whose name or id was invalid.
	badBranch map[*Branch]bool
	// idRange is where the id of a project, or the name or id of a branch, is
	// written, for errors about two instances of one block (foreach.go).
	idRange map[any]hcl.Range
	// emptyEnv are the values that came out empty because env() read an
	// empty variable, so that errors about them can say which (env_empty.go).
	emptyEnv []emptyEnvValue
	// projectLabels and projectIDs are the projects decoded so far: where
	// each label is declared, and the project of each id.
	projectLabels map[string]hcl.Range
	projectIDs    map[string]*Project
	// secrets are the attributes whose value comes from a sensitive
	// variable; keepDetail the diagnostics about one that say nothing of
	// its value (sensitive.go).
	secrets    []secret
	keepDetail map[*hcl.Diagnostic]bool
}

func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// load parses every file, then decodes them together. It is how files with
// syntax errors are read (loadByFile declines them): with every file's
// syntax errors and nothing else.
func (l *loader) load(files map[string][]byte) {
	var bodies []*hclsyntax.Body
	for _, name := range sortedNames(files) {
		filename := l.fileName(name)
		if l.stopBefore(filename) {
			return
		}
		f, diags, stopped := l.parse(files[name], filename)
		if stopped {
			return
		}
		l.diags = append(l.diags, diags...)
		if f == nil {
			continue
		}
		l.cfg.Files[filename] = f
		if body, ok := f.Body.(*hclsyntax.Body); ok {
			bodies = append(bodies, body)
		}
	}
	// A file that does not parse is only partly read: checking the rest would report
	// blocks and attributes as missing when they are merely unread.
	if l.diags.HasErrors() {
		return
	}

	if l.stopBefore("") {
		return
	}
	byType := map[string][]*hclsyntax.Block{}
	for _, body := range bodies {
		c, diags := bodyContent(body, rootSchema, "the top level of a file")
		l.diags = append(l.diags, diags...)
		for _, b := range c.Blocks {
			byType[b.Type] = append(byType[b.Type], b)
		}
	}

	l.evaluateVariablesAndLocals(byType)
	l.decodeSettings(byType["neonform"])
	if l.opts.SettingsOnly && !l.opts.Projects || l.stopBefore("") {
		return
	}
	l.decodeProjects(byType["project"])
	l.decodeMoves(byType["moved"])
	l.decodeRemovals(byType["removed"])
}

// evaluateVariablesAndLocals gives the variables their values and evaluates
// the locals: the context every other block is evaluated in.
func (l *loader) evaluateVariablesAndLocals(byType map[string][]*hclsyntax.Block) {
	l.declareVariables(byType["variable"])
	vars := cty.ObjectVal(l.assignVariables())
	l.declareLocals(byType["locals"])
	locals := l.evaluateLocals(vars)
	l.recordNamedValues(vars, locals)
	l.ctx = &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": vars, "local": cty.ObjectVal(locals)},
		Functions: l.functions,
	}
}

// fileName is the name diagnostics and cfg.Files give a file of the directory.
func (l *loader) fileName(name string) string {
	if l.cfg.Dir != "" && !filepath.IsAbs(name) {
		return filepath.Join(l.cfg.Dir, name)
	}
	return name
}

// errorf adds an error diagnostic at rng.
func (l *loader) errorf(rng hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  rng.Ptr(),
	}
	l.diags = append(l.diags, d)
	return d
}

// where is "main.hcl:12", for messages that point at a second place.
func where(rng hcl.Range) string {
	return fmt.Sprintf("%s:%d", rng.Filename, rng.Start.Line)
}

// sortDiagnostics orders diagnostics by file and position; those without a place
// (command-line problems) come first, in the order found.
func sortDiagnostics(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}

// dropRepeats keeps the first of diagnostics that say the same thing at the
// same place: the instances of a block with for_each are decoded one by one,
// and a mistake that does not depend on each.key is one mistake.
func dropRepeats(diags hcl.Diagnostics) hcl.Diagnostics {
	type said struct {
		severity        hcl.DiagnosticSeverity
		summary, detail string
		at              hcl.Range
	}
	seen := make(map[said]bool, len(diags))
	out := diags[:0]
	for _, d := range diags {
		k := said{severity: d.Severity, summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.at = *d.Subject
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}
