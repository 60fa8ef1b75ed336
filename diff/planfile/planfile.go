package planfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/abandon"
	"github.com/neonform/neonform/internal/atomicfile"
	"github.com/neonform/neonform/internal/bounded"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/jsonfast"
	"github.com/neonform/neonform/internal/suggest"
)

// writePlan writes the plan file's bytes to w: indented JSON (a CI artifact
// people read and diff), lists never null, a newline at the end. Struct
// fields and map keys have a fixed order, so the same plan gives the same
// bytes. It is written as a stream (writePlanJSON): the file of a large plan
// is never whole in memory.
func writePlan(w io.Writer, p *diff.Plan) error {
	if err := writePlanJSON(w, p); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// RenderJSON writes the plan as the plan file holds it, but with the values
// that came from sensitive variables hidden (planfile_redact.go).
func RenderJSON(w io.Writer, p *diff.Plan) error {
	return writeRedacted(w, p)
}

// WriteFile saves the plan at path, readable by its owner only (0600), and
// atomically: a reader sees the old file or the new one, never half of one.
// It replaces only what CheckWritable allows.
func WriteFile(path string, p *diff.Plan) error {
	return WriteFileContext(context.Background(), path, p)
}

// WriteFileContext is WriteFile that an interrupt stops at the next of its
// writes (a plan of 250,000 steps is about 100 MB of them): what was
// written is removed, and the file at path, if there was one, is left as
// it was.
func WriteFileContext(ctx context.Context, path string, p *diff.Plan) error {
	err := atomicfile.Write(path, outOptions, func(w io.Writer) error { return writePlan(abandon.Writer(ctx, w), p) })
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	if err != nil && !refusedOut(err) {
		return fmt.Errorf("saving the plan to %s: %w", path, err)
	}
	return err
}

// CheckWritable makes sure a plan can be saved at path before anything is
// read from the service: path is nothing yet, an empty regular file or a
// plan (saving would otherwise replace a configuration file, a state,
// anything else a mistyped -out names), never a directory, a device, a
// named pipe or a socket, nor a link to one, and its directory takes a new
// file.
func CheckWritable(path string) error {
	err := atomicfile.Check(path, outOptions)
	if err != nil && !refusedOut(err) {
		return fmt.Errorf("cannot save the plan to %s: %w", path, err)
	}
	return err
}

// outOptions are what -out may replace: a regular file that is empty or a
// plan, or one a link points to.
var outOptions = atomicfile.Options{
	Rule: "-out writes only regular files: choose another path",
	Replace: func(target string, _ fs.FileInfo) error {
		if what := notAPlan(target); what != "" {
			return &notAPlanError{path: target, what: what}
		}
		return nil
	},
}

// notAPlanError is a regular file -out will not replace.
type notAPlanError struct{ path, what string }

func (e *notAPlanError) Error() string {
	return fmt.Sprintf("cannot save the plan to %s: it is %s, not a plan file, and saving would replace it. Choose another file for -out, or remove %s first if you mean to replace it",
		e.path, e.what, e.path)
}

// refusedOut reports whether err is -out refusing what its path is: a
// message complete as it is.
func refusedOut(err error) bool {
	var refused *atomicfile.RefusedError
	var notPlan *notAPlanError
	return errors.As(err, &refused) || errors.As(err, &notPlan)
}

// MaxFileSize bounds what is read of a plan file, so that a path pointing at
// /dev/zero or a huge file cannot exhaust memory: a plan of 1,000 projects
// of 10 computes is 8 MB.
const MaxFileSize = 256 << 20

// ReadFile loads a plan file. It refuses a file from a newer neonform (whose
// format this one might misread) and says clearly when the file is not a plan.
func ReadFile(path string) (*diff.Plan, error) {
	return ReadFileContext(context.Background(), path)
}

// ReadFileContext is ReadFile that stops once ctx is done, an interrupt,
// with ctx's error: while it decodes the file (checkHead, decodePlan) and
// while it checks the plan (diff.CheckContext). A plan of 250,000 steps
// takes seconds of CPU to read.
func ReadFileContext(ctx context.Context, path string) (*diff.Plan, error) {
	b, err := bounded.Read(path, MaxFileSize)
	if err != nil {
		if bounded.Refused(err) {
			return nil, fmt.Errorf("reading the plan: %w; a plan file is a regular file of at most %s", err, bounded.MiB(MaxFileSize))
		}
		return nil, fmt.Errorf("reading the plan: %w", err)
	}
	if err := checkHead(ctx, path, b); err != nil {
		return nil, err
	}
	// checkHead's json.Unmarshal already refused anything after the plan.
	p, err := decodePlan(ctx, b)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err // interrupted
		}
		return nil, corrupt(path, b, err)
	}
	for i := range p.Changes {
		// A change's list is the one source: an attribute it names is hidden
		// in every view, whether or not the file marks the attribute (and
		// names the change's variables, unless the file names them).
		diff.MarkSensitive(p.Changes[i].Attributes, p.Changes[i].Secrets())
	}
	if err := diff.CheckContext(ctx, p); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// What differs may quote a secret: hidden, in the sentence and the diagnostic.
		secrets := p.SensitiveTexts()
		again := remake(path)
		sentence := fmt.Sprintf("%s does not hold together, so neither show nor apply uses it: %v. Was it edited by hand? Make a new one with %s",
			path, diff.HideTexts(err.Error(), secrets), again.Quoted())
		d := diff.Refusal(err, "Plan file does not hold together", sentence, secrets)
		d.PlanFile, d.Suggestions = path, []suggest.Command{again}
		return nil, &diag.Error{Message: sentence, Diagnostics: diag.Diagnostics{d}}
	}
	return p, nil
}

// planHead is what a file must say at its top level to be a plan this
// neonform reads.
type planHead struct {
	FormatVersion int             `json:"format_version"`
	ToolVersion   string          `json:"tool_version"`
	Steps         json.RawMessage `json:"steps"`
	Computes      json.RawMessage `json:"computes"`
	Redacted      bool            `json:"redacted"`
}

// checkHead refuses a file that is not a plan this neonform reads, saying
// what it is. Decoding the head reads the whole file with encoding/json
// (more than a second of CPU for a plan of 250,000 steps), which looks at
// no context: an interrupt abandons it (internal/abandon) and returns
// ctx's error at once.
func checkHead(ctx context.Context, path string, b []byte) error {
	type decoded struct {
		head planHead
		err  error
	}
	d, err := abandon.Call(ctx, func() (d decoded) {
		d.err = json.Unmarshal(b, &d.head)
		return d
	})
	if err != nil {
		return err
	}
	head := d.head
	if d.err != nil {
		return corrupt(path, b, d.err)
	}
	switch {
	case head.Computes != nil && head.Steps == nil:
		return remakeError(path, "%s is a neonform state file, not a plan; make a plan with %s", path)
	case head.FormatVersion == 0:
		return remakeError(path, "%s is not a neonform plan (it has no format_version); make one with %s", path)
	case head.FormatVersion > diff.FormatVersion:
		return remakeError(path, "%s was written by neonform %s in plan format %d, but this neonform reads format %d at most; "+
			"apply it with that version or newer, or make a new plan with this one: %s", path, head.ToolVersion, head.FormatVersion, diff.FormatVersion)
	case head.FormatVersion < diff.FormatVersion:
		return remakeError(path, "%s was written by neonform %s in plan format %d, which this neonform no longer reads (it reads format %d); "+
			"make a new plan with %s", path, head.ToolVersion, head.FormatVersion, diff.FormatVersion)
	case head.Steps == nil:
		return remakeError(path, "%s is not a neonform plan (it has no steps); make one with %s", path)
	case head.Redacted:
		return remakeError(path, "%s is a plan as `plan -format json` or `show -format json` print it, with the values of sensitive variables hidden, "+
			"so neither show nor apply uses it. Use the file that `plan -out` wrote, or make one with %s", path)
	}
	return nil
}

// decodePlan reads the plan in b, a plan file's bytes: with the fast
// decoder when it reads them as encoding/json does (internal/jsonfast), a
// large plan being most of what apply reads; request bodies compact. Once
// ctx is done it stops with ctx's error: the fast decoder looks every
// jsonfast.LookEvery elements of the plan's lists, and encoding/json, for
// a plan the fast one declines, is abandoned (internal/abandon).
func decodePlan(ctx context.Context, b []byte) (*diff.Plan, error) {
	p := &diff.Plan{}
	look := jsonfast.Interrupted(ctx)
	ok, err := jsonfast.DecodeLooking(b, p, false,
		jsonfast.Every[diff.Step](look), jsonfast.Every[diff.Drift](look), jsonfast.Every[diff.Change](look),
		jsonfast.Every[diff.Project](look), jsonfast.Every[diff.Unmanaged](look))
	if err != nil {
		return nil, err
	}
	if !ok {
		slow, err := abandon.Call(ctx, func() error { return json.Unmarshal(b, p) })
		if err == nil {
			err = slow
		}
		if err != nil {
			return nil, err
		}
	}
	if err := diff.CompactBodies(p); err != nil {
		return nil, err
	}
	diff.Normalize(p)
	return p, nil
}

// corrupt explains a file that does not decode, with the line where it breaks.
func corrupt(path string, b []byte, err error) error {
	where := ""
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		where = fmt.Sprintf(" at line %d", lineOf(b, syn.Offset))
	case errors.As(err, &typ):
		where = fmt.Sprintf(" at line %d (field %s)", lineOf(b, typ.Offset), typ.Field)
	}
	return remakeError(path, "%s is not a valid plan file%s: %v. It may be truncated or edited by hand; make a new one with %s", path, where, err)
}

// remake is the command that makes a new plan in place of the one at path:
// at path itself if a plan may be saved there, otherwise (path is a
// configuration file, a state, anything but a plan) beside it, in a file
// -out will take. The CLI writes it with the configuration's directory.
func remake(path string) suggest.Command {
	out := path
	for _, name := range []string{"plan.json", "neonform.plan.json", "new.plan.json"} {
		if notAPlan(out) == "" {
			break
		}
		out = filepath.Join(filepath.Dir(path), name)
	}
	return suggest.Run("plan", "-out", filepath.ToSlash(out))
}

// remakeError is the error format says of the file at path, its last verb
// the command that makes a new plan in its place (remake).
func remakeError(path, format string, args ...any) error {
	c := remake(path)
	return suggest.Wrap(fmt.Errorf(format, append(args, c.Quoted())...), c)
}

// notAPlan says what the file at path is when it is there and is not a plan
// file that -out may replace: "a configuration file", "a neonform state
// file", "a JSON file"... "" when there is no file, it is empty, or it is a
// plan (of any format version, even one that no longer holds together).
func notAPlan(path string) string {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return ""
	case !info.Mode().IsRegular():
		return bounded.Kind(info.Mode())
	case strings.HasSuffix(path, ".hcl") || strings.HasSuffix(path, ".vars"):
		return "a configuration file" // even empty: it is still read as one
	case info.Size() == 0 || startsLikeAPlan(path):
		return ""
	}
	b, err := bounded.Read(path, MaxFileSize)
	if err != nil {
		return "a file neonform cannot read as a plan (" + err.Error() + ")"
	}
	var head struct {
		FormatVersion *int            `json:"format_version"`
		Steps         json.RawMessage `json:"steps"`
		Computes      json.RawMessage `json:"computes"`
	}
	switch {
	case json.Unmarshal(b, &head) != nil:
		if bytes.Contains(b, []byte(`"format_version"`)) && !bytes.Contains(b, []byte(`"computes"`)) {
			return "" // a plan cut short (a state has computes): what is left of it is no loss
		}
		return "a file that is not JSON"
	case head.FormatVersion != nil && head.Steps != nil:
		return ""
	case head.Computes != nil:
		return "a neonform state file"
	}
	return "a JSON file"
}

// startsLikeAPlan reports whether the file at path begins as every plan file
// neonform writes does, with the keys format_version and tool_version:
// the start of a plan, so that a large plan about to be replaced is not
// read whole (a state file has no tool_version).
func startsLikeAPlan(path string) bool {
	f, _, err := bounded.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, 4096))
	token := func() string {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		return fmt.Sprint(tok)
	}
	var version int
	return token() == "{" && token() == "format_version" && dec.Decode(&version) == nil && token() == "tool_version"
}

func lineOf(b []byte, offset int64) int {
	if offset > int64(len(b)) {
		offset = int64(len(b))
	}
	return bytes.Count(b[:offset], []byte("\n")) + 1
}
