package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
)

const (
	// maxNameLength is the service's limit on an endpoint name (OpenAPI maxLength).
	maxNameLength = 64
	// Suspend timeouts the service accepts, besides "never" and the default.
	minSuspend = 60 * time.Second
	maxSuspend = 168 * time.Hour
)

// pgSettingPattern is what a Postgres setting name looks like, including the dotted
// names of extension settings (pg_stat_statements.track).
var pgSettingPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

// computeTypeNames maps words people use for the two kinds of compute.
var computeTypeNames = map[string]ComputeType{
	"primary": ReadWrite, "read-write": ReadWrite, "readwrite": ReadWrite, "rw": ReadWrite,
	"replica": ReadOnly, "read_replica": ReadOnly, "read-only": ReadOnly, "readonly": ReadOnly, "ro": ReadOnly,
}

// computeAttrs decodes one compute block's attributes, remembering which were
// sensitive and which invalid.
type computeAttrs struct {
	l     *loader
	cp    *Compute
	attrs map[string]*hclsyntax.Attribute
	bad   map[string]bool
	// misspelt are attributes written under a wrong name (already reported).
	misspelt map[string]bool
}

func (c *computeAttrs) eval(name string, ty cty.Type, want string) (cty.Value, decoded) {
	v, state, sensitive := c.l.eval(c.attrs[name], ty, want)
	if sensitive {
		if c.cp.Sensitive == nil {
			c.cp.Sensitive = map[string]bool{}
		}
		c.cp.Sensitive[name] = true
		if vars := c.l.sensitiveVars(c.attrs[name].Expr); len(vars) > 0 {
			if c.cp.SensitiveFrom == nil {
				c.cp.SensitiveFrom = map[string][]string{}
			}
			c.cp.SensitiveFrom[name] = vars
		}
	}
	if state == invalid {
		c.markBad(name)
	}
	return v, state
}

// markBad marks attributes invalid, so that later checks do not repeat the
// problem. The map is made for the first: most computes have none, and a
// map each was a tenth of loading 100,000 of them.
func (c *computeAttrs) markBad(names ...string) {
	if c.bad == nil {
		c.bad = map[string]bool{}
		c.l.bad[c.cp] = c.bad
	}
	for _, name := range names {
		c.bad[name] = true
	}
}

// fail reports a problem with an attribute's value and marks it invalid.
func (c *computeAttrs) fail(name, summary, format string, args ...any) *hcl.Diagnostic {
	a := c.attrs[name]
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  a.Expr.Range().Ptr(),
		Context:  a.SrcRange.Ptr(),
	}
	c.l.diags = append(c.l.diags, d)
	c.markBad(name)
	return d
}

// decodeCompute reads a compute block and applies the defaults: omitted
// attributes mean their managed.Default (the service's defaults, the label
// for the name), and are enforced.
func (l *loader) decodeCompute(p *Project, br *Branch, b *hclsyntax.Block, inst instance) *Compute {
	label := inst.label
	// The defaults of a block of the written label: for_each's instances
	// share it (their label says their key too).
	cp := EmptyCompute(b.Labels[0])
	cp.Label = label
	cp.Address = AddressOf(p.Label, br.Label, label)
	cp.ProjectLabel, cp.BranchLabel = p.Label, br.Label
	cp.DeclRange = b.DefRange()
	l.checkLabel(b, "compute")
	content, diags := bodyContent(b.Body, computeSchema, "a compute block")
	l.diags = append(l.diags, diags...)
	cp.Ranges.grow(len(content.Attributes))
	c := &computeAttrs{l: l, cp: cp, attrs: content.Attributes, misspelt: content.Misspelt}
	for name, a := range content.Attributes {
		cp.Ranges.Set(name, a.SrcRange)
	}

	for _, decode := range computeDecoding {
		decode(c, b, inst)
	}
	c.checkSuspendForSize(l.cfg.Settings.AccountTier)
	c.decodeActiveHours()
	l.decodeLifecycle(cp, content.Blocks)
	return cp
}

// computeDecoders read the arguments of each managed attribute
// (internal/managed) into the Compute, by the attribute's first argument:
// the size's decoder reads all three of a size's. TestEveryManagedArgumentIsDecoded
// fails for an attribute without one.
var computeDecoders = map[string]func(c *computeAttrs, b *hclsyntax.Block, inst instance){
	"type":            func(c *computeAttrs, _ *hclsyntax.Block, _ instance) { c.decodeType() },
	"min_cu":          func(c *computeAttrs, _ *hclsyntax.Block, _ instance) { c.decodeSize(c.l.cfg.Settings.AccountTier) },
	"suspend_timeout": func(c *computeAttrs, _ *hclsyntax.Block, _ instance) { c.decodeSuspendTimeout() },
	"pg_settings":     func(c *computeAttrs, _ *hclsyntax.Block, _ instance) { c.decodePgSettings() },
	"disabled":        func(c *computeAttrs, _ *hclsyntax.Block, _ instance) { c.decodeDisabled() },
	"name":            (*computeAttrs).decodeName,
}

// computeDecoding is computeDecoders in managed.All's order, each once, so
// that a block's problems are reported in that order; made once, not for
// each of 100,000 blocks.
var computeDecoding = func() []func(*computeAttrs, *hclsyntax.Block, instance) {
	var out []func(*computeAttrs, *hclsyntax.Block, instance)
	done := map[string]bool{}
	for _, a := range managed.All {
		if len(a.Arguments) == 0 || done[a.Arguments[0]] {
			continue // set by the block's place, or read with another (a size's ends)
		}
		done[a.Arguments[0]] = true
		if d := computeDecoders[a.Arguments[0]]; d != nil { // else TestEveryManagedArgumentIsDecoded fails
			out = append(out, d)
		}
	}
	return out
}()

// decodeType reads read_write or read_only, with a hint for the other
// words people use for them.
func (c *computeAttrs) decodeType() {
	v, state := c.eval("type", cty.String, `"read_write" or "read_only"`)
	if state != valid {
		return
	}
	switch t := ComputeType(v.AsString()); t {
	case ReadWrite, ReadOnly:
		c.cp.Type = t
	default:
		meant := suggest(string(t), []string{string(ReadWrite), string(ReadOnly)})
		if alias, ok := computeTypeNames[string(t)]; ok {
			meant = string(alias)
		}
		detail := fmt.Sprintf("type is \"read_write\" (the branch's primary compute) or \"read_only\" (a read replica), not %q.", t)
		withNear(c.fail("type", "Invalid compute type", "%s", detail), nearMiss(len(detail), true, meant))
	}
}

func (c *computeAttrs) decodeDisabled() {
	if v, state := c.eval("disabled", cty.Bool, "true or false"); state == valid {
		c.cp.Disabled = v.True()
	}
}

// decodeSize reads size, or min_cu and max_cu, and checks them against the service's
// sizes and the account tier. One of the two forms, never both, and an autoscaling
// range needs both ends: with only one, the other would silently be 1 CU.
func (c *computeAttrs) decodeSize(tier sizing.Tier) {
	const want = "a number of compute units, such as 0.25, 1 or 4"
	size, sizeState := c.eval("size", cty.Number, want)
	minV, minState := c.eval("min_cu", cty.Number, want)
	maxV, maxState := c.eval("max_cu", cty.Number, want)
	if sizeState == invalid || minState == invalid || maxState == invalid {
		return
	}
	if sizeState == valid && (minState == valid || maxState == valid) {
		c.fail("size", "Conflicting size attributes",
			"size sets a fixed size, min_cu and max_cu an autoscaling range: write one or the other, as size = 2, or min_cu = 0.25 with max_cu = 2.")
		c.l.keepLast()
		c.markBad("min_cu", "max_cu")
		return
	}
	switch {
	case sizeState == valid:
		cu := numberValue(size)
		if c.sizeOK("size", sizing.CheckRange(cu, cu, tier)) {
			c.cp.MinCU, c.cp.MaxCU = cu, cu
		}
		r, _ := c.cp.Ranges.Get("size")
		c.cp.Ranges.Set("min_cu", r)
		c.cp.Ranges.Set("max_cu", r)
	case minState == valid && maxState == valid:
		lo, hi := numberValue(minV), numberValue(maxV)
		okLo := c.sizeOK("min_cu", sizing.CheckSize(lo))
		okHi := c.sizeOK("max_cu", sizing.CheckSize(hi))
		if !okLo || !okHi {
			return
		}
		// Both are sizes the service offers, so what is left is about the pair: the
		// order (shown at min_cu) or the upper end (shown at max_cu).
		at := "max_cu"
		if lo > hi {
			at = "min_cu"
		}
		if c.sizeOK(at, sizing.CheckRange(lo, hi, tier)) {
			c.cp.MinCU, c.cp.MaxCU = lo, hi
		}
	case minState == valid || maxState == valid:
		given, missing := "min_cu", "max_cu"
		if maxState == valid {
			given, missing = "max_cu", "min_cu"
		}
		if c.misspelt[missing] {
			// Written under a misspelt name, already reported: one mistake, one error.
			c.markBad(given)
			return
		}
		c.fail(given, "Incomplete autoscaling range",
			"%s is set without %s: an autoscaling range needs both, as min_cu = 0.25 with max_cu = 4. For a fixed size, write size = N instead.", given, missing)
		c.l.keepLast()
	}
}

// sizeOK reports a sizing rule broken by attribute name; true when err is nil.
func (c *computeAttrs) sizeOK(name string, err error) bool {
	if err == nil {
		return true
	}
	var se *sizing.Error
	if errors.As(err, &se) {
		c.fail(name, se.Summary, "%s", se.Detail)
	} else {
		c.fail(name, "Unsupported compute size", "%v", err)
	}
	return false
}

// decodeSuspendTimeout reads a Go duration between 60s and 168h, or "never".
func (c *computeAttrs) decodeSuspendTimeout() {
	v, state := c.eval("suspend_timeout", cty.String, `a duration such as "5m", or "never"`)
	if state != valid {
		return
	}
	s := v.AsString()
	if s == "never" {
		c.cp.SuspendTimeoutSeconds = SuspendNever
		return
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		hint := ""
		if n, err := strconv.ParseFloat(s, 64); err == nil {
			hint = fmt.Sprintf(" For %g seconds, write %q.", n, s+"s")
		}
		c.fail("suspend_timeout", "Invalid suspend timeout",
			"%q is not a duration: write a number with a unit, such as \"5m\", \"90s\" or \"1h\", or \"never\" to keep the compute always on.%s", s, hint)
		return
	}
	if d < minSuspend || d > maxSuspend {
		c.fail("suspend_timeout", "Suspend timeout out of range",
			"The service suspends an idle compute after 60s to 168h (a week), or never; %q is %s. Omit suspend_timeout for the service default of 5m.", s, d)
		return
	}
	if d%time.Second != 0 {
		c.fail("suspend_timeout", "Invalid suspend timeout",
			"The service counts whole seconds; %q is %s. Write %q.", s, d, d.Round(time.Second).String())
		return
	}
	c.cp.SuspendTimeoutSeconds = int64(d / time.Second)
}

// checkSuspendForSize checks a written suspend timeout against the compute's size
// and the account's plan (sizing.CheckSuspend): shown at suspend_timeout, the value
// to change, once both it and the size are valid.
func (c *computeAttrs) checkSuspendForSize(tier sizing.Tier) {
	if c.attrs["suspend_timeout"] == nil || c.bad["suspend_timeout"] || c.bad["size"] || c.bad["min_cu"] || c.bad["max_cu"] {
		return
	}
	c.sizeOK("suspend_timeout", sizing.CheckSuspend(c.cp.MinCU, c.cp.MaxCU, c.cp.SuspendTimeoutSeconds, tier))
}

// decodePgSettings reads a map of Postgres settings; numbers and bools become the
// strings the service stores.
func (c *computeAttrs) decodePgSettings() {
	v, state := c.eval("pg_settings", cty.Map(cty.String), `a map of setting names to values, such as { work_mem = "64MB" }`)
	if state != valid {
		return
	}
	settings := map[string]string{}
	for it := v.ElementIterator(); it.Next(); {
		k, val := it.Element()
		name := k.AsString()
		if !pgSettingPattern.MatchString(name) {
			c.fail("pg_settings", "Invalid Postgres setting name",
				"%q is not a Postgres setting name: names are letters, digits, _ and dots, such as work_mem or pg_stat_statements.track.", name)
			return
		}
		settings[name] = val.AsString()
	}
	c.cp.PgSettings = settings
}

// nameWant describes a valid name, in messages.
var nameWant = fmt.Sprintf(`the endpoint's name, such as "reporting", of at most %d characters`, maxNameLength)

// decodeName reads the endpoint's name, which defaults to the label; either way it
// must fit the service's 64 characters.
func (c *computeAttrs) decodeName(b *hclsyntax.Block, inst instance) {
	v, state := c.eval("name", cty.String, nameWant)
	switch state {
	case invalid:
		return
	case omitted:
		if inst.keyed() {
			// The label would name every instance's endpoint alike.
			c.l.errorf(b.Body.Attributes["for_each"].SrcRange, "Missing compute name",
				"Each instance of a compute block with for_each is an endpoint of its own, with a name of its own: add one that uses the key, such as name = \"%s-${each.key}\".", b.Labels[0])
			c.markBad("name")
			return
		}
		if n := utf8.RuneCountInString(c.cp.Name); n > maxNameLength {
			c.l.errorf(b.LabelRanges[0], "Compute name too long",
				"The label is also the endpoint's name in the service, which is at most %d characters; this one has %d. Shorten the label, or set a shorter name = \"...\".", maxNameLength, n)
			c.markBad("name")
		}
		return
	}
	name := v.AsString()
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		c.fail("name", "Invalid compute name", "name cannot be empty; omit it to use the label %q.", b.Labels[0])
	case n > maxNameLength:
		c.fail("name", "Compute name too long", "The service allows endpoint names of at most %d characters; this one has %d.", maxNameLength, n)
	default:
		c.cp.Name = name
	}
}

// decodeLifecycle reads the lifecycle block: guards checked at plan time.
func (l *loader) decodeLifecycle(cp *Compute, blocks []*hclsyntax.Block) {
	var first *hclsyntax.Block
	for _, b := range blocks {
		if first != nil {
			l.errorf(b.TypeRange, "Duplicate lifecycle block",
				"This compute already has a lifecycle block at %s; merge the two.", where(first.TypeRange))
			continue
		}
		first = b
	}
	if first == nil {
		return
	}
	cp.Ranges.Set("lifecycle", first.DefRange())
	for _, a := range first.Body.Attributes {
		l.noteApplyVariables(a.Expr)
	}
	c, diags := bodyContent(first.Body, lifecycleSchema, "a lifecycle block")
	l.diags = append(l.diags, diags...)
	if a := c.Attributes["prevent_destroy"]; a != nil {
		cp.Ranges.Set("lifecycle.prevent_destroy", a.SrcRange)
		if v, state := l.boolAttr(a); state == valid {
			cp.PreventDestroy = v
		}
	}
	if a := c.Attributes["allow_restart"]; a != nil {
		cp.Ranges.Set("lifecycle.allow_restart", a.SrcRange)
		if v, state := l.boolAttr(a); state == valid {
			cp.AllowRestart = v
		}
	}
}
