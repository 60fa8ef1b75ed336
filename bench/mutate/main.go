// Command mutate measures how many single changes to the checks a plan is
// held to the tests notice (docs/development.md, "Mutation testing"). For
// each mutation of the files it is given (a comparison flipped, && and ||
// swapped, an integer constant off by one, an if's condition negated, a
// return in an if block or an append deleted), it runs the tests with the
// mutated file in place of the real one through go's -overlay: the tree is
// never written, so an interrupted run leaves nothing behind. A mutant the
// tests fail on is killed; one they pass survives; one that does not build
// is not counted.
//
//	go run ./bench/mutate [-sample N] [-seed S] [-at FILE:LINE,...] [-timeout 5m] [-pkgs "./diff/... ./apply/..."] FILE...
//
// bench/mutate.sh runs it on the files of docs/mutation.md.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// mutant is one single change to a file: the bytes [from, to) replaced.
type mutant struct {
	file     string
	line     int
	op       string
	from, to int
	with     string
}

// options are the command's flags.
type options struct {
	sample  int
	seed    uint64
	timeout time.Duration
	pkgs    []string
	list    bool
	at      string
	only    string
}

func main() {
	var o options
	flag.IntVar(&o.sample, "sample", 0, "run this many mutants, picked at random (0: all)")
	flag.Uint64Var(&o.seed, "seed", 1, "the seed of the sample")
	flag.DurationVar(&o.timeout, "timeout", 5*time.Minute, "the longest a mutant's tests may take: longer counts as killed (a hang)")
	pkgs := flag.String("pkgs", "./diff/... ./apply/...", "the packages whose tests must notice, run one pattern after another in this order")
	flag.BoolVar(&o.list, "list", false, "list the mutants without running them")
	flag.StringVar(&o.at, "at", "", "only the mutants at these places, FILE:LINE separated by commas")
	flag.StringVar(&o.only, "only", "", "after sampling, only the mutants of files whose path starts so: one sample run in parts")
	flag.Parse()
	o.pkgs = strings.Fields(*pkgs)
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/mutate [flags] FILE...")
		os.Exit(2)
	}
	var all []mutant
	for _, f := range flag.Args() {
		ms, err := mutantsOf(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		all = append(all, ms...)
	}
	all = o.choose(all)
	if o.list {
		for _, m := range all {
			fmt.Printf("%s:%d %s\n", m.file, m.line, m.op)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	scratch, err := os.MkdirTemp("", "mutate-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(scratch)
	printTallies(runAll(ctx, all, scratch, o))
	if ctx.Err() != nil {
		fmt.Println("interrupted: the tree was not changed")
		os.Exit(130)
	}
}

// choose keeps the mutants the flags ask for: those at -at's places, a
// -sample of them, and of those, the files -only names.
func (o options) choose(all []mutant) []mutant {
	if o.at != "" {
		places := map[string]bool{}
		for _, p := range strings.Split(o.at, ",") {
			places[p] = true
		}
		all = keep(all, func(m mutant) bool { return places[fmt.Sprintf("%s:%d", m.file, m.line)] })
	}
	if o.sample > 0 && o.sample < len(all) {
		r := rand.New(rand.NewPCG(o.seed, o.seed))
		r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		all = all[:o.sample]
		sort.SliceStable(all, func(i, j int) bool {
			if all[i].file != all[j].file {
				return all[i].file < all[j].file
			}
			return all[i].from < all[j].from
		})
	}
	if o.only != "" {
		all = keep(all, func(m mutant) bool { return strings.HasPrefix(m.file, o.only) })
	}
	return all
}

func keep(all []mutant, ok func(mutant) bool) []mutant {
	var kept []mutant
	for _, m := range all {
		if ok(m) {
			kept = append(kept, m)
		}
	}
	return kept
}

// tally is how a file's mutants went.
type tally struct{ killed, survived, unbuilt int }

// runAll runs the mutants one after another until ctx is cancelled,
// printing each verdict, and counts them by file.
func runAll(ctx context.Context, all []mutant, scratch string, o options) map[string]*tally {
	byFile := map[string]*tally{}
	for i, m := range all {
		if ctx.Err() != nil {
			break
		}
		if byFile[m.file] == nil {
			byFile[m.file] = &tally{}
		}
		t := byFile[m.file]
		verdict, out := run(ctx, m, scratch, o.timeout, o.pkgs)
		switch verdict {
		case "killed":
			t.killed++
		case "survived":
			t.survived++
		case "unbuilt":
			t.unbuilt++
		default:
			continue // interrupted: not counted
		}
		fmt.Printf("%d/%d %-8s %s:%d %s\n", i+1, len(all), verdict, m.file, m.line, m.op)
		if verdict == "unbuilt" && os.Getenv("MUTATE_VERBOSE") != "" {
			fmt.Println(out)
		}
	}
	return byFile
}

// printTallies prints the counts of each file, and of all.
func printTallies(byFile map[string]*tally) {
	var k, s, u int
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	fmt.Println()
	for _, f := range files {
		t := byFile[f]
		k, s, u = k+t.killed, s+t.survived, u+t.unbuilt
		fmt.Printf("%-24s killed %3d of %3d (%s), %d did not build\n", f, t.killed, t.killed+t.survived, rate(t.killed, t.survived), t.unbuilt)
	}
	fmt.Printf("%-24s killed %3d of %3d (%s), %d did not build\n", "all", k, k+s, rate(k, s), u)
}

func rate(killed, survived int) string {
	if killed+survived == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f %%", 100*float64(killed)/float64(killed+survived))
}

// run tests the packages with m in place of its file, and says how it went:
// killed, survived, unbuilt, or "" when ctx was cancelled.
func run(ctx context.Context, m mutant, scratch string, timeout time.Duration, pkgs []string) (verdict, output string) {
	src, err := os.ReadFile(m.file)
	if err != nil {
		return "unbuilt", err.Error()
	}
	mutated := append(append(append([]byte{}, src[:m.from]...), m.with...), src[m.to:]...)
	abs, err := filepath.Abs(m.file)
	if err != nil {
		return "unbuilt", err.Error()
	}
	// The mutant and its overlay go into the private directory this run
	// made (os.MkdirTemp, 0700), never into the tree: plain writes of files
	// nobody else can have placed there, not internal/atomicfile's, which
	// guards the files neonform writes for its users.
	copyPath := filepath.Join(scratch, filepath.Base(m.file))
	overlay := filepath.Join(scratch, "overlay.json")
	doc, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: copyPath}})
	// go test builds the mutant (a separate go build would compile the
	// package twice): one that does not compile is not a test's to kill.
	if err := os.WriteFile(copyPath, mutated, 0o600); err != nil {
		return "unbuilt", err.Error()
	}
	if err := os.WriteFile(overlay, doc, 0o600); err != nil {
		return "unbuilt", err.Error()
	}
	// One package pattern after another, cheapest first: the first that
	// fails kills the mutant, and the rest need not run (go test's
	// -failfast stops a package's tests, not the other packages).
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out bytes.Buffer
	for _, pkg := range pkgs {
		cmd := exec.CommandContext(tctx, "go", "test", "-overlay", overlay, "-count=1", "-failfast", pkg)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		out.Reset()
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		switch {
		case ctx.Err() != nil:
			return "", ""
		case errors.Is(tctx.Err(), context.DeadlineExceeded):
			return "killed", "timed out"
		case err != nil && (strings.Contains(out.String(), "[build failed]") || strings.Contains(out.String(), "[setup failed]")):
			return "unbuilt", out.String()
		case err != nil:
			return "killed", out.String()
		}
	}
	return "survived", out.String()
}

// mutantsOf lists the mutants of one Go file.
func mutantsOf(file string) ([]mutant, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []mutant
	add := func(pos, end token.Pos, op, with string) {
		p := fset.Position(pos)
		out = append(out, mutant{file: file, line: p.Line, op: op, from: p.Offset, to: fset.Position(end).Offset, with: with})
	}
	flips := map[token.Token]string{token.EQL: "!=", token.NEQ: "==", token.LSS: "<=", token.LEQ: "<", token.GTR: ">=", token.GEQ: ">", token.LAND: "||", token.LOR: "&&"}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if with, ok := flips[n.Op]; ok {
					add(n.OpPos, n.OpPos+token.Pos(len(n.Op.String())), n.Op.String()+" -> "+with, with)
				}
			case *ast.BasicLit:
				if n.Kind == token.INT {
					if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
						add(n.Pos(), n.End(), fmt.Sprintf("%s -> %d", n.Value, v+1), strconv.FormatInt(v+1, 10))
					}
				}
			case *ast.IfStmt:
				add(n.Cond.Pos(), n.Cond.End(), "negate if", "!("+string(src[fset.Position(n.Cond.Pos()).Offset:fset.Position(n.Cond.End()).Offset])+")")
				if last := len(n.Body.List); last > 0 {
					if r, ok := n.Body.List[last-1].(*ast.ReturnStmt); ok {
						add(r.Pos(), r.End(), "delete return in if", "")
					}
				}
			case *ast.AssignStmt:
				if len(n.Rhs) == 1 {
					if call, ok := n.Rhs[0].(*ast.CallExpr); ok {
						if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "append" {
							add(n.Pos(), n.End(), "delete append", "")
						}
					}
				}
			}
			return true
		})
	}
	return out, nil
}
