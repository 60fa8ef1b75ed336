package diff

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neonform/neonform/config"
)

// SensitiveValue is what every view, error, log line and JSON document prints
// in place of a value that came from a variable declared sensitive (README.md,
// Variables).
const SensitiveValue = "(sensitive value)"

// SensitiveAttributes lists the managed attributes, by the plan's names
// ("max_cu", "pg_settings", ...), whose value a compute block takes from a
// sensitive variable; nil when none does. A change and the state entry of
// the compute record them.
func SensitiveAttributes(c *config.Compute) []string {
	if len(c.Sensitive) == 0 {
		return nil
	}
	var out []string
	for _, a := range attributes {
		if a.sensitive(c.Sensitive) {
			out = append(out, a.Name())
		}
	}
	return out
}

// Hides reports whether the plan attribute planName ("max_cu",
// "pg_settings.work_mem", or "pg_settings" for all settings) is one of the
// sensitive attributes names.
func Hides(names []string, planName string) bool {
	if len(names) == 0 {
		return false
	}
	if slices.Contains(names, planName) {
		return true
	}
	a := attributeNamed(planName)
	return a != nil && slices.Contains(names, a.Name())
}

// MarkSensitive marks the attributes that names hides. It never unmarks one.
func MarkSensitive(attrs []Attribute, names []string) {
	for i := range attrs {
		if Hides(names, attrs[i].Name) {
			attrs[i].Sensitive = true
		}
	}
}

// SensitiveByEndpoint maps each endpoint the plan's changes act on to the
// attributes of its compute that come from sensitive variables: what apply
// hides when it explains what changed since the plan, or what a lost answer
// left behind.
func (p *Plan) SensitiveByEndpoint() map[string][]string {
	out := map[string][]string{}
	for _, ch := range p.Changes {
		if ch.EndpointID != "" && len(ch.Sensitive) > 0 {
			out[ch.EndpointID] = ch.Sensitive
		}
	}
	return out
}

// RowsHiding is Rows with the value of each attribute that names hides
// printed as SensitiveValue (a setting's name stays: it is the
// configuration's word, and says which setting it is).
func (v Values) RowsHiding(names []string) []Row {
	rows := v.Rows()
	for i, r := range rows {
		if !slices.Contains(names, r.Name) {
			continue
		}
		rows[i].Value = SensitiveValue
		if r.Name == pgSettings.name && len(v.PgSettings) > 0 {
			rows[i].Value = formatSettings(v.PgSettings, func(string) string { return SensitiveValue })
		}
	}
	return rows
}

// QuotedName is the name a create sets, in quotes, or SensitiveValue when it
// came from a sensitive variable: how apply names it in its progress and
// notes.
func (s *Step) QuotedName() string {
	return quotedName(s.Name, s.Record != nil && Hides(s.Record.Sensitive, "name"))
}

// SensitiveTexts are the texts a step sets from sensitive variables (the
// endpoint's name, the settings' values), longest first: what apply takes
// out of the service's answers before it prints them, since a service that
// refuses a value may quote it. Numbers are not among them: "2" is in too
// many messages to be told apart.
func (s *Step) SensitiveTexts() []string {
	if s.Record == nil {
		return nil
	}
	return appendTexts(nil, s.Record.Applied.Name, s.Record.Applied.PgSettings, s.Record.Sensitive)
}

// SensitiveTexts are the texts of the plan that came from sensitive
// variables, longest first: those its steps set, and those its live
// endpoints hold where their compute takes them from one (the secrets an
// earlier apply set).
func (p *Plan) SensitiveTexts() []string {
	var out []string
	for i := range p.Steps {
		out = append(out, p.Steps[i].SensitiveTexts()...)
	}
	byEndpoint := p.SensitiveByEndpoint()
	for _, proj := range p.Projects {
		for _, ep := range proj.Endpoints {
			out = appendTexts(out, ep.Name, ep.PgSettings, byEndpoint[ep.ID])
		}
	}
	slices.SortFunc(out, longestFirst)
	return slices.Compact(out)
}

// appendTexts appends the name and the settings' values that names hides,
// longest first.
func appendTexts(out []string, name string, settings map[string]string, names []string) []string {
	if len(names) == 0 {
		return out
	}
	if Hides(names, "name") && name != "" {
		out = append(out, name)
	}
	if Hides(names, pgSettings.name) {
		for _, v := range settings {
			if v != "" {
				out = append(out, v)
			}
		}
	}
	slices.SortFunc(out, longestFirst)
	return out
}

// longestFirst orders texts so that one is replaced before any part of it.
func longestFirst(a, b string) int {
	if len(a) != len(b) {
		return len(b) - len(a)
	}
	return strings.Compare(a, b)
}

// HideTexts is text with each of secrets (SensitiveTexts: longest first, so
// that one is replaced before any part of it) replaced by SensitiveValue
// where it stands alone: not within a word, so that a setting "on" leaves
// "operation" as it is.
func HideTexts(text string, secrets []string) string {
	for _, secret := range secrets {
		var b strings.Builder
		rest := text
		for {
			i := strings.Index(rest, secret)
			if i < 0 {
				break
			}
			end := i + len(secret)
			if wordAt(rest[:i], true) && wordAt(secret, false) || wordAt(rest[end:], false) && wordAt(secret, true) {
				b.WriteString(rest[:end]) // part of a longer word
			} else {
				b.WriteString(rest[:i] + SensitiveValue)
			}
			rest = rest[end:]
		}
		text = b.String() + rest
	}
	return text
}

// wordAt reports whether s ends (last) or begins (!last) with a letter or
// a digit.
func wordAt(s string, last bool) bool {
	var r rune
	if last {
		r, _ = utf8.DecodeLastRuneInString(s)
	} else {
		r, _ = utf8.DecodeRuneInString(s)
	}
	return s != "" && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
