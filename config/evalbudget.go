package config

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/neonform/neonform/internal/english"
)

// The bounds of evaluating a configuration, so that no expression, however
// small its text, can make neonform run out of memory or time
// (docs/limits.md: "Evaluating expressions"). A replace whose replacement
// holds the text it replaces squares the text's length at each call; these
// stop it at the first call that passes a bound, where it is written.
const (
	// MaxValueText is how much text one value may hold, its elements'
	// included: twice the most the files may hold (MaxBytes), so that any
	// string written in them can be joined to another.
	MaxValueText = 16 << 20
	// MaxValueElements is how many elements one value may hold, counting
	// those of the lists, sets and maps inside it: as many as the files'
	// tokens could write (MaxTokens).
	MaxValueElements = MaxTokens // messages say "2,000,000"
	// MaxNumberDigits is how far from 1 a number may be, in decimal digits:
	// 1e10000 and 1e-10000 print as 10,001 digits, and printing a number
	// takes time that grows as the square of its digits (1e10000000: more
	// than a minute).
	MaxNumberDigits = 10_000
	// MaxEvalSteps is the work all the expressions of one configuration may
	// do, in steps of about 50 ns: stepsPerExpression for an expression
	// evaluated, stepsPerIteration for an element a for or a splat goes
	// through, and, for a function, a step for each element and each 64
	// bytes of text it is given or returns. The largest configuration of
	// the files' limits (docs/PERFORMANCE.md) takes about a tenth of them;
	// the most that fits takes about a second (bench/config_limits.sh).
	// Steps are counted, not timed, so a configuration is accepted or
	// refused alike on every machine.
	MaxEvalSteps = 20_000_000 // messages say "20,000,000"
	// MaxEvalMemory is how much all the values the expressions make may
	// hold together: text byte for byte, and elemBytes for each element.
	MaxEvalMemory = 512 << 20
)

// What an expression and an iteration of a for expression cost, in steps:
// hcl makes a new scope for each iteration, which takes about a microsecond.
const (
	stepsPerExpression = 4
	stepsPerIteration  = 16
)

// elemBytes is what an element of a list, set or map costs in memory, about:
// the value, its slot, and a number's digits.
const elemBytes = 64

// evalBudget is what the evaluation of one configuration has left, and
// whether it was stopped: by a bound, or by the run's context (SIGINT,
// SIGTERM). Once stopped, nothing more is evaluated.
type evalBudget struct {
	ctx    context.Context
	steps  int64
	memory int64
	// calls counts steps taken, to look at ctx every checkEvery of them.
	calls int
	// stopped is the diagnostic that stopped the evaluation, at the
	// expression where it stopped.
	stopped *hcl.Diagnostic
	// interrupted: stopped by ctx, not by a bound.
	interrupted bool
	// functions are those expressions may call, for the types they take.
	functions map[string]function.Function
	// guarded are the expressions as evaluated, with their guards (guard.go).
	guarded map[hcl.Expression]hcl.Expression
}

// checkEvery is how many steps pass between two looks at the context: a
// step takes a microsecond at most, so an interrupt is seen in well under a
// second.
const checkEvery = 1024

func newEvalBudget(ctx context.Context) *evalBudget {
	if ctx == nil {
		ctx = context.Background()
	}
	return &evalBudget{ctx: ctx, steps: MaxEvalSteps, memory: MaxEvalMemory, guarded: map[hcl.Expression]hcl.Expression{}}
}

// refusal is a bound passed, or the run interrupted: the evaluation stops
// with it, at the expression being evaluated. It is an error so that a
// function can return it (functions do not know where they are called).
type refusal struct {
	summary, detail string
	interrupt       bool
}

func (r *refusal) Error() string { return r.detail }

// take charges n steps; a refusal when they run out or the run is interrupted.
func (b *evalBudget) take(n int64) *refusal {
	b.calls++
	if b.calls%checkEvery == 0 || n > checkEvery {
		if b.ctx.Err() != nil {
			return b.interrupt()
		}
	}
	if n > b.steps {
		b.steps = 0
		return &refusal{
			summary: "Configuration takes too long to evaluate",
			detail: "Evaluating the configuration's expressions takes more than the 20,000,000 steps neonform allows (docs/limits.md), and this one was being evaluated when they ran out. " +
				"A real configuration takes far fewer: look for a for expression, a splat or a function that goes through a very long list, or through one many times.",
		}
	}
	b.steps -= n
	return nil
}

// interrupt is the refusal of a run asked to stop.
func (b *evalBudget) interrupt() *refusal {
	return &refusal{
		summary:   "Interrupted",
		detail:    fmt.Sprintf("neonform stopped evaluating the configuration here (%v). Nothing was changed.", context.Cause(b.ctx)),
		interrupt: true,
	}
}

// hold charges the memory of a new value of n bytes.
func (b *evalBudget) hold(n int64) *refusal {
	if n > b.memory {
		b.memory = 0
		return &refusal{
			summary: "Configuration takes too much memory to evaluate",
			detail: fmt.Sprintf("The values the configuration's expressions make add up to more than %s, the most neonform allows (docs/limits.md), and this one passed it. "+
				"A real configuration needs far less: look for text or lists that grow with each use, such as a value made from copies of itself.", sizeText(MaxEvalMemory)),
		}
	}
	b.memory -= n
	return nil
}

// size is what a value holds: its text and its elements, those of the
// values inside it included.
type size struct {
	text, elems int64
}

func (s size) bytes() int64 { return s.text + s.elems*elemBytes }

// over says what bound s passes, or nil; what names the value ("replace's
// result").
func (s size) over(what string) *refusal {
	switch {
	case s.text > MaxValueText:
		return &refusal{
			summary: "Value too large",
			detail: fmt.Sprintf("%s would hold %s of text; a value may hold at most %s (docs/limits.md). "+
				"A real configuration needs far less: look for text that grows with each use, such as a replacement, a width or a count far larger than meant.",
				what, sizeText(s.text), sizeText(MaxValueText)),
		}
	case s.elems > MaxValueElements:
		return &refusal{
			summary: "Value too large",
			detail: fmt.Sprintf("%s would hold %s elements; a value may hold at most 2,000,000, counting those of the lists, sets and maps inside it (docs/limits.md). "+
				"A real configuration needs far fewer: look for a list that is multiplied (setproduct, nested for expressions) or made from copies of itself.",
				what, english.Thousands(s.elems)),
		}
	}
	return nil
}

// measure is v's size, counting no further than limit elements and limit
// text (the walk stops there: a list of a thousand copies of a large list
// takes little memory, but measuring it whole would take long). Numbers
// count as the digits they print as; a number past MaxNumberDigits is a
// refusal, since printing it would take minutes.
func measure(v cty.Value, limit size) (size, *refusal) {
	var s size
	var r *refusal
	var walk func(v cty.Value)
	walk = func(v cty.Value) {
		if r != nil || s.elems > limit.elems || s.text > limit.text {
			return
		}
		v, _ = v.Unmark()
		if !v.IsKnown() || v.IsNull() {
			return
		}
		ty := v.Type()
		switch {
		case ty == cty.String:
			s.text += int64(len(v.AsString()))
		case ty == cty.Number:
			// An element of what holds it, counted there.
			r = numberTooLarge(v.AsBigFloat())
		case ty.IsListType() || ty.IsSetType() || ty.IsMapType() || ty.IsTupleType() || ty.IsObjectType():
			s.elems += int64(v.LengthInt())
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				walk(e)
			}
		}
	}
	walk(v)
	return s, r
}

// numberTooLarge refuses a number further from 1 than MaxNumberDigits.
func numberTooLarge(f *big.Float) *refusal {
	if f.IsInf() || f.Sign() == 0 {
		return nil
	}
	// |f| is 2**exp times 0.5 to 1: 1e10000 is 2**33220 times 0.52.
	exp := math.Abs(float64(f.MantExp(nil))) - 1
	if exp*math.Log10(2) <= MaxNumberDigits {
		return nil
	}
	return &refusal{
		summary: "Number too large",
		detail: fmt.Sprintf("This number has about %s digits before or after the point; neonform takes numbers of at most %s (from 1e-10000 to 1e10000, docs/limits.md), since printing a longer one takes minutes. "+
			"Is an exponent or a power far larger than meant?", english.Thousands(int64(exp*math.Log10(2))), english.Thousands(MaxNumberDigits)),
	}
}

// sizeText is n bytes as a person reads it: "1,000 bytes", "16 MiB", "1.5 TiB".
func sizeText(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if n < 1<<10 {
		return english.Thousands(n) + " bytes"
	}
	f, unit := float64(n)/(1<<10), units[0]
	for _, u := range units[1:] {
		if f < 1<<10 {
			break
		}
		f, unit = f/(1<<10), u
	}
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f %s", f, unit)
	}
	return fmt.Sprintf("%.1f %s", f, unit)
}

// stopBefore reports whether the run was interrupted, and then stops the
// load as an interrupt within an evaluation does, naming the file it was
// about to read (or "" between phases). The load looks before each file
// and between its phases; a file's parse, which hclsyntax does without
// looking at a context (seconds for one at the 8 MiB limit), is given up
// when an interrupt comes during it (parseConfig), and the load stops here.
func (l *loader) stopBefore(filename string) bool {
	b := l.evalBudget
	if b.interrupted {
		return true
	}
	if b.ctx.Err() == nil {
		return false
	}
	r := b.interrupt()
	b.stopped = &hcl.Diagnostic{Severity: hcl.DiagError, Summary: r.summary, Detail: r.detail}
	if filename != "" {
		b.stopped.Subject = &hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos}
	}
	b.interrupted = true
	l.diags = append(l.diags, b.stopped)
	return true
}
