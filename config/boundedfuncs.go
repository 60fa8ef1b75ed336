package config

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/neonform/neonform/internal/english"
)

// boundedFunctions are fs, each under b: a function's arguments may hold no
// more than a value may (MaxValueText, MaxValueElements), each element and
// each 64 bytes of them is a step, and so is each of its result, which is
// refused past the same bounds and charged to the memory of the evaluation.
// A function whose result can be far larger than its arguments (replace,
// format, indent, setproduct, ...) is first asked, by its precheck, how large
// the result would be, so that it is refused before it is made.
func boundedFunctions(fs map[string]function.Function, b *evalBudget) map[string]function.Function {
	out := make(map[string]function.Function, len(fs))
	for name, f := range fs {
		out[name] = boundFunction(name, f, b, prechecks[name])
	}
	return out
}

// precheck says what would be wrong with calling a function on args: the
// bound its result would pass, or steps it would take beyond its arguments'.
type precheck func(args []cty.Value, b *evalBudget) *refusal

var valueLimit = size{text: MaxValueText, elems: MaxValueElements}

func boundFunction(name string, f function.Function, b *evalBudget, pre precheck) function.Function {
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		// The arguments are checked before the function's type is: some
		// do their work there (jsondecode parses its document for it).
		Type: func(args []cty.Value) (cty.Type, error) {
			if r := checkArgs(name, args, b, pre); r != nil {
				return cty.NilType, r
			}
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := f.Call(args)
			if err != nil {
				return cty.NilVal, err
			}
			out, r := measure(v, valueLimit)
			if r == nil {
				r = out.over(name + "'s result")
			}
			if r == nil {
				r = b.take(out.elems + out.text/64)
			}
			if r == nil {
				r = b.hold(out.bytes())
			}
			if r != nil {
				return cty.NilVal, r
			}
			return v, nil
		},
	})
}

// checkArgs refuses arguments larger than a value may be, or on which the
// function would make too large a result (pre), and charges their steps.
func checkArgs(name string, args []cty.Value, b *evalBudget, pre precheck) *refusal {
	var in size
	for _, a := range args {
		s, r := measure(a, valueLimit)
		if r != nil {
			return r
		}
		in.text, in.elems = in.text+s.text, in.elems+s.elems
	}
	if r := in.over(name + "'s arguments"); r != nil {
		return r
	}
	if r := b.take(1 + in.elems + in.text/64); r != nil {
		return r
	}
	if pre != nil && allKnown(args) {
		return pre(args, b)
	}
	return nil
}

// allKnown: the type of a call on unknown values is asked before they are
// known; the call is checked when they are.
func allKnown(args []cty.Value) bool {
	for _, a := range args {
		if !a.IsWhollyKnown() {
			return false
		}
	}
	return true
}

// prechecks are the functions whose result can be far larger than their
// arguments, or that take longer than a step an element.
var prechecks = map[string]precheck{
	"replace":       preReplace,
	"regex_replace": preRegexReplace,
	"regex":         preRegex,
	"regexall":      preRegexAll,
	"format":        preFormat,
	"formatlist":    preFormatList,
	"indent":        preIndent,
	"join":          preJoin,
	"setproduct":    preSetProduct,
	"jsondecode":    preJSONDecode,
	"jsonencode":    preJSONEncode,
	"csvdecode":     preCSVDecode,
	"split":         preSplit,
	"chunklist":     preChunklist,
	"distinct":      preDistinct,
	"parseint":      preParseInt,
}

// str is args[i] as a string ("" if it is not one: the function's own
// checks then refuse it).
func str(args []cty.Value, i int) string {
	if i >= len(args) {
		return ""
	}
	v, _ := args[i].Unmark()
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// textResult is the refusal of a result of n bytes of text, if it is too large.
func textResult(name string, n float64) *refusal {
	return size{text: int64(min(n, math.MaxInt64/2))}.over(name + "'s result")
}

// elemsResult is the refusal of a result of n elements, if too many.
func elemsResult(name string, n float64) *refusal {
	return size{elems: int64(min(n, math.MaxInt64/2))}.over(name + "'s result")
}

// replace(str, substr, replacement): each substr found becomes replacement,
// and "" is found before every character and at the end.
func preReplace(args []cty.Value, _ *evalBudget) *refusal {
	s, old, repl := str(args, 0), str(args, 1), str(args, 2)
	var n int
	if old == "" {
		n = utf8.RuneCountInString(s) + 1
	} else {
		n = strings.Count(s, old)
	}
	return textResult("replace", float64(len(s))+float64(n)*float64(len(repl)-len(old)))
}

// regexCost charges a regular expression's run over s: Go's regular
// expressions take time in proportion to the pattern's length times the
// text's.
func regexCost(pattern, s string, b *evalBudget) *refusal {
	return b.take(int64(len(pattern)) * int64(len(s)+1) / 64)
}

// matches counts pattern's matches in s, and their bytes, without keeping
// them (regexall and regex_replace would keep one for each).
func matches(pattern, s string) (n, matched int) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return 0, 0 // the function says what is wrong with it
	}
	re.ReplaceAllStringFunc(s, func(m string) string {
		n++
		matched += len(m)
		return ""
	})
	return n, matched
}

func preRegex(args []cty.Value, b *evalBudget) *refusal {
	return regexCost(str(args, 0), str(args, 1), b)
}

// regexall(pattern, str): a list of each match, or of its groups.
func preRegexAll(args []cty.Value, b *evalBudget) *refusal {
	pattern, s := str(args, 0), str(args, 1)
	if r := regexCost(pattern, s, b); r != nil {
		return r
	}
	n, _ := matches(pattern, s)
	groups := strings.Count(pattern, "(") + 1
	return elemsResult("regexall", float64(n)*float64(groups+1))
}

// regex_replace(str, pattern, replacement): each match becomes the
// replacement, in which each $ may stand for (a part of) the match.
func preRegexReplace(args []cty.Value, b *evalBudget) *refusal {
	s, pattern, repl := str(args, 0), str(args, 1), str(args, 2)
	if r := regexCost(pattern, s, b); r != nil {
		return r
	}
	n, matched := matches(pattern, s)
	refs := strings.Count(repl, "$")
	return textResult("regex_replace", float64(len(s)-matched)+float64(n)*float64(len(repl))+float64(refs)*float64(matched))
}

// verbs are the %... of a format string: how many, and the widths and
// precisions they ask for (a width pads, a precision adds digits).
func verbs(format string) (n int, padding float64) {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		n++
		// Every number written, a width, a precision or an argument's
		// index, counts as padding: an upper bound.
		num := 0.0
		for ; i < len(format) && strings.IndexByte("-+# .[]*0123456789", format[i]) >= 0; i++ {
			if c := format[i]; c >= '0' && c <= '9' {
				num = num*10 + float64(c-'0')
			} else {
				padding, num = padding+num, 0
			}
		}
		padding += num
	}
	return n, padding
}

// formatted is an upper bound of the text format makes of format and vals:
// the format's text, and for each verb its padding and the largest value
// (a verb may name any argument: %[1]s%[1]s).
func formatted(format string, vals []cty.Value) float64 {
	n, padding := verbs(format)
	largest := 0.0
	for _, v := range vals {
		s, _ := measure(v, valueLimit)
		// %v of a list or a map is its JSON: quotes, commas and brackets.
		largest = max(largest, float64(s.text*6+s.elems*elemBytes))
	}
	return float64(len(format)) + padding + float64(n)*largest
}

func preFormat(args []cty.Value, _ *evalBudget) *refusal {
	return textResult("format", formatted(str(args, 0), args[1:]))
}

// formatlist makes one string for each element of its list arguments.
func preFormatList(args []cty.Value, _ *evalBudget) *refusal {
	times := 1
	for _, a := range args[1:] {
		a, _ = a.Unmark()
		if a.IsKnown() && !a.IsNull() && (a.Type().IsListType() || a.Type().IsTupleType()) {
			times = max(times, a.LengthInt())
		}
	}
	return textResult("formatlist", float64(times)*formatted(str(args, 0), args[1:]))
}

// indent(spaces, str): the spaces after every newline.
func preIndent(args []cty.Value, _ *evalBudget) *refusal {
	spaces, _ := args[0].Unmark()
	if !spaces.IsKnown() || spaces.IsNull() {
		return nil
	}
	n, _ := spaces.AsBigFloat().Float64()
	s := str(args, 1)
	return textResult("indent", n+float64(len(s))+float64(strings.Count(s, "\n"))*n)
}

// join(separator, lists...): the separator between every two elements.
func preJoin(args []cty.Value, _ *evalBudget) *refusal {
	sep := str(args, 0)
	var s size
	for _, l := range args[1:] {
		m, _ := measure(l, valueLimit)
		s.text, s.elems = s.text+m.text, s.elems+m.elems
	}
	return textResult("join", float64(s.text)+float64(s.elems)*float64(len(sep)))
}

// setproduct(sets...): every combination of one element of each, as a list
// of as many elements as sets.
func preSetProduct(args []cty.Value, _ *evalBudget) *refusal {
	product := 1.0
	for _, a := range args {
		a, _ = a.Unmark()
		if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
			return nil
		}
		product *= float64(a.LengthInt())
	}
	return elemsResult("setproduct", product*float64(len(args)+1))
}

// preJSONDecode refuses a document nested deeper than the configuration's
// files may be (cty decodes by recursion: three million [ overflow its
// stack) or with more values than a value may hold, before decoding it.
func preJSONDecode(args []cty.Value, _ *evalBudget) *refusal {
	s := str(args, 0)
	depth, deepest, values := 0, 0, 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
			values++
		case ']', '}':
			depth--
		case ',', ':':
			values++
		}
	}
	if deepest > MaxNesting {
		return &refusal{
			summary: "JSON nested too deep",
			detail: fmt.Sprintf("This JSON document nests %s levels deep; neonform decodes documents nested at most %d levels deep, as deep as the configuration's files may nest (docs/limits.md). "+
				"Is it the document you meant?", english.Thousands(int64(deepest)), MaxNesting),
		}
	}
	return elemsResult("jsondecode", float64(values))
}

// jsonencode writes each byte of text as up to 6 (\u0000), and each
// element with its quotes, comma and a number's digits (up to about 160).
func preJSONEncode(args []cty.Value, _ *evalBudget) *refusal {
	s, _ := measure(args[0], valueLimit)
	return textResult("jsonencode", float64(s.text)*6+float64(s.elems)*160)
}

// csvdecode: a value for each field, a map for each row.
func preCSVDecode(args []cty.Value, _ *evalBudget) *refusal {
	s := str(args, 0)
	return elemsResult("csvdecode", float64(strings.Count(s, ","))+2*float64(strings.Count(s, "\n"))+2)
}

// split(separator, str): an element between every two separators; "" splits
// between characters.
func preSplit(args []cty.Value, _ *evalBudget) *refusal {
	sep, s := str(args, 0), str(args, 1)
	n := utf8.RuneCountInString(s)
	if sep != "" {
		n = strings.Count(s, sep) + 1
	}
	return elemsResult("split", float64(n))
}

// chunklist(list, size): a list for every size elements.
func preChunklist(args []cty.Value, _ *evalBudget) *refusal {
	l, _ := args[0].Unmark()
	sz, _ := args[1].Unmark()
	if !l.IsKnown() || l.IsNull() || !sz.IsKnown() || sz.IsNull() {
		return nil
	}
	n, _ := sz.AsBigFloat().Float64()
	count := float64(l.LengthInt())
	return elemsResult("chunklist", count+count/max(n, 1))
}

// distinct compares each element with those kept before it.
func preDistinct(args []cty.Value, b *evalBudget) *refusal {
	l, _ := args[0].Unmark()
	if !l.IsKnown() || l.IsNull() {
		return nil
	}
	n := int64(l.LengthInt())
	return b.take(n * n / 8)
}

// parseint of a long number takes time as the square of its digits.
func preParseInt(args []cty.Value, b *evalBudget) *refusal {
	words := int64(len(str(args, 0))/19 + 1)
	return b.take(words * words / 16)
}
