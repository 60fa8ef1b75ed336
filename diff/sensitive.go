package diff

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/state"
)

// SensitiveValue is what every view, error, log line and JSON document prints
// in place of a value that came from a variable declared sensitive, when the
// plan or state does not say which (docs/configuration.md, Variables).
const SensitiveValue = managed.SensitiveValue

// HiddenValue is what every view prints in place of a value that came from
// the sensitive variables vars: "(sensitive value from var.db_password)".
func HiddenValue(vars []string) string { return managed.HiddenValue(vars) }

// Secrets says which attributes of a compute come from sensitive variables:
// Names, by the plan's names, and From, the variables of each (empty in a
// plan or state written before it was kept). A change and the state entry
// of the compute record both.
type Secrets struct {
	Names []string
	From  map[string][]string
}

// Secrets are the change's sensitive attributes and their variables.
func (ch *Change) Secrets() Secrets { return Secrets{ch.Sensitive, ch.SensitiveFrom} }

// SecretsOf are the sensitive attributes a state entry records; none for nil.
func SecretsOf(c *state.Compute) Secrets {
	if c == nil {
		return Secrets{}
	}
	return Secrets{c.Sensitive, c.SensitiveFrom}
}

// Hides reports whether the plan attribute planName is one of s.
func (s Secrets) Hides(planName string) bool { return Hides(s.Names, planName) }

// Vars are the sensitive variables the value of the plan attribute planName
// ("pg_settings.work_mem" is that of "pg_settings") comes from.
func (s Secrets) Vars(planName string) []string {
	if len(s.From) == 0 {
		return nil
	}
	if vars, ok := s.From[planName]; ok {
		return vars
	}
	if a := managed.Named(planName); a != nil {
		return s.From[a.Name]
	}
	return nil
}

// Value is what is printed in place of the value of planName.
func (s Secrets) Value(planName string) string { return HiddenValue(s.Vars(planName)) }

// SensitiveFrom maps each attribute of SensitiveAttributes(c) to the
// sensitive variables its value comes from; nil when none does.
func SensitiveFrom(c *config.Compute) map[string][]string {
	if len(c.SensitiveFrom) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, a := range managed.InPlan {
		if vars := a.From(c.SensitiveFrom); len(vars) > 0 {
			out[a.Name] = vars
		}
	}
	return out
}

// secretsOf are the sensitive attributes of a compute block, as a change
// records them.
func secretsOf(c *config.Compute) Secrets {
	return Secrets{SensitiveAttributes(c), SensitiveFrom(c)}
}

// SensitiveAttributes lists the managed attributes, by the plan's names
// ("max_cu", "pg_settings", ...), whose value a compute block takes from a
// sensitive variable; nil when none does. A change and the state entry of
// the compute record them.
func SensitiveAttributes(c *config.Compute) []string {
	if len(c.Sensitive) == 0 {
		return nil
	}
	var out []string
	for _, a := range managed.InPlan {
		if a.Sensitive(c.Sensitive) {
			out = append(out, a.Name)
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
	a := managed.Named(planName)
	return a != nil && slices.Contains(names, a.Name)
}

// MarkSensitive marks the attributes that s hides, with the variables they
// come from when s knows them. It never unmarks one, nor names another
// variable for one already named: the first to mark it says where it comes
// from (the change's, for a change; the state's, for drift).
func MarkSensitive(attrs []Attribute, s Secrets) {
	for i := range attrs {
		if s.Hides(attrs[i].Name) {
			attrs[i].Sensitive = true
			if vars := s.Vars(attrs[i].Name); len(vars) > 0 && len(attrs[i].SensitiveFrom) == 0 {
				attrs[i].SensitiveFrom = slices.Clone(vars)
			}
		}
	}
}

// SensitiveByEndpoint maps each endpoint the plan's changes act on, or its
// steps forget (a removed block's, which no change names), to the
// attributes of its compute that come from sensitive variables: what the
// printed JSON hides of the live endpoints, and what apply hides when it
// explains what changed since the plan, or what a lost answer left behind.
func (p *Plan) SensitiveByEndpoint() map[string]Secrets {
	out := map[string]Secrets{}
	for i := range p.Changes {
		if ch := &p.Changes[i]; ch.EndpointID != "" && len(ch.Sensitive) > 0 {
			out[ch.EndpointID] = ch.Secrets()
		}
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		if _, named := out[s.EndpointID]; s.Forget != "" && s.EndpointID != "" && len(s.Sensitive) > 0 && !named {
			out[s.EndpointID] = Secrets{s.Sensitive, s.SensitiveFrom}
		}
	}
	return out
}

// RowsHiding is Rows with the value of each attribute that s hides printed
// as HiddenValue (a setting's name stays: it is the configuration's word,
// and says which setting it is).
func (v Values) RowsHiding(s Secrets) []Row {
	return managed.Rows(managed.Values(v), func(a *managed.Attribute) (string, bool) {
		if !slices.Contains(s.Names, a.Name) {
			return "", false
		}
		return s.Value(a.Name), true
	})
}

// QuotedName is the name a create sets, in quotes, or SensitiveValue when it
// came from a sensitive variable: how apply names it in its progress and
// notes.
func (s *Step) QuotedName() string {
	return QuotedName(s.Name, SecretsOf(s.Record))
}

// SensitiveTexts are the texts a step sets from sensitive variables (the
// endpoint's name, the settings' values), longest first: what apply takes
// out of the service's answers before it prints them, since a service that
// refuses a value may quote it. Numbers are not among them: "2" is in too
// many messages to be told apart.
func (s *Step) SensitiveTexts() []Secret {
	if s.Record == nil || len(s.Record.Sensitive) == 0 {
		return nil
	}
	v := AppliedValues(s.Record)
	return appendTexts(nil, &v, SecretsOf(s.Record))
}

// Secret is a text that came from sensitive variables, and those variables
// (none when the plan does not say): what HideTexts puts in its place.
type Secret struct {
	Text string
	From []string
}

// SensitiveTexts are the texts of the plan that came from sensitive
// variables, longest first: those its steps set, and those its live
// endpoints hold where their compute takes them from one (the secrets an
// earlier apply set).
func (p *Plan) SensitiveTexts() []Secret {
	var out []Secret
	for i := range p.Steps {
		out = append(out, p.Steps[i].SensitiveTexts()...)
	}
	byEndpoint := p.SensitiveByEndpoint()
	for _, proj := range p.Projects {
		for i := range proj.Endpoints {
			ep := &proj.Endpoints[i]
			out = appendTexts(out, &ep.Values, byEndpoint[ep.ID])
		}
	}
	slices.SortFunc(out, longestFirst)
	return slices.CompactFunc(out, func(a, b Secret) bool { return a.Text == b.Text })
}

// appendTexts appends the texts of v (the table's texts: a name, the
// settings' values) that s hides, longest first.
func appendTexts(out []Secret, v *Values, s Secrets) []Secret {
	if len(s.Names) == 0 {
		return out
	}
	for _, a := range managed.InPlan {
		if s.Hides(a.Name) {
			for _, t := range a.Texts(v.table()) {
				out = append(out, Secret{t, s.Vars(a.Name)})
			}
		}
	}
	slices.SortFunc(out, longestFirst)
	return out
}

// longestFirst orders texts so that one is replaced before any part of it
// (the same text from two variables: the one named first wins).
func longestFirst(a, b Secret) int {
	if len(a.Text) != len(b.Text) {
		return len(b.Text) - len(a.Text)
	}
	if c := strings.Compare(a.Text, b.Text); c != 0 {
		return c
	}
	return slices.Compare(a.From, b.From)
}

// HideTexts is text with each of secrets (SensitiveTexts: longest first, so
// that one is replaced before any part of it) replaced by HiddenValue
// where it stands alone: not within a word, so that a setting "on" leaves
// "operation" as it is.
func HideTexts(text string, secrets []Secret) string {
	for _, sec := range secrets {
		secret, hidden := sec.Text, HiddenValue(sec.From)
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
				b.WriteString(rest[:i] + hidden)
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

// HasSensitive reports whether any value of the plan came from a sensitive
// variable.
func (p *Plan) HasSensitive() bool {
	for _, ch := range p.Changes {
		if len(ch.Sensitive) > 0 {
			return true
		}
		for _, a := range ch.Attributes {
			if a.Sensitive {
				return true
			}
		}
	}
	for _, d := range p.Drift {
		for _, a := range d.Attributes {
			if a.Sensitive {
				return true
			}
		}
	}
	for _, dc := range p.Defaults {
		if len(dc.Sensitive) > 0 {
			return true
		}
	}
	for i := range p.Steps {
		if len(p.Steps[i].Sensitive) > 0 { // a forgotten compute's
			return true
		}
	}
	if p.Cost != nil {
		for _, b := range p.Cost.Budgets {
			if b.Sensitive { // a compute outside a partial plan's targets
				return true
			}
		}
	}
	return false
}
