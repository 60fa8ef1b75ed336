package managed

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/neonform/neonform/api"
)

// kind is how an attribute's values behave: its two kinds are a single
// value (field) and a map whose keys are attributes of their own
// (settings). Attribute's methods (table.go) call it; its methods take the
// Values they read or write by address, so a caller keeps them in a pooled
// scratch (scratch.go).
type kind interface {
	// bind gives the kind its attribute (name, default), once (table.go).
	bind(a *Attribute)

	fromLive(dst *Values, ep *api.Endpoint)

	// differences lists the plan attributes whose value differs between
	// before and after, by the equality rule or, when exact, by value; each
	// with its effect on a running compute.
	differences(before, after *Values, exact bool) []Change
	// initial lists the plan attributes of v as a create sets them.
	initial(v *Values) []Change
	// owns reports whether a plan attribute's name is this attribute's.
	owns(planName string) bool
	// setAfter sets the value a plan attribute changes to into v.
	setAfter(v *Values, a Change) error
	// atDefault reports whether a plan value is what a compute block that
	// leaves the attribute out asks for (Attribute.Default).
	atDefault(value any) bool
	// display prints a plan attribute's value for people; show, its value in v.
	display(value any) string
	show(v *Values) string
	// showHidden prints its value in v with every value from a sensitive
	// variable as hidden (a setting's name stays: it is the
	// configuration's word).
	showHidden(v *Values, hidden string) string
	// texts are its values in v that the service's answers may quote (a
	// name, settings' values), which apply hides when they are sensitive;
	// none for a number, a type or a flag: "2" is in too many messages.
	texts(v *Values) []string

	// arguments are the compute block's arguments that ask for its value
	// in v (diff.BlockArguments); none when the block's place says it.
	arguments(v *Values) []Argument

	// fromDefaults reads a project's defaults (nil: none) as the value a
	// compute created without its own gets: the project's, else the
	// attribute's default; nothing for an attribute they do not have
	// (Attribute.ProjectDefault). toDefaults sets v's value in the
	// update of a project's defaults.
	fromDefaults(dst *Values, d *api.DefaultEndpointSettings)
	// fromDefault sets what a compute block labelled label that writes
	// none of its arguments asks for (Attribute.Default); false when its
	// default is not a value of its kind. A default by place sets nothing.
	fromDefault(dst *Values, label string) bool
	toDefaults(s *api.DefaultsSent, v *Values)

	toCreate(e *api.EndpointCreate, v *Values)
	// toUpdate sets the value of v in an update; false when no update can
	// change it (the compute must be recreated).
	toUpdate(u *api.EndpointUpdate, v *Values) bool
}

// field is an attribute that holds one value of type T.
type field[T any] struct {
	attr *Attribute
	// in is where the value lives in Values, whether a live endpoint's, a
	// compute block's or a state entry's (they are all Values); live reads
	// it from the service's answer.
	in     func(*Values) *T
	live   func(*api.Endpoint) T
	equal  func(a, b T) bool
	effect func(before, after T) Disruption
	create func(*api.EndpointCreate, T)
	// patch is nil when no update can change the value.
	patch func(*api.EndpointUpdate, T)
	// decode reads a value back from a plan file (JSON numbers are float64 there).
	decode func(any) (T, error)
	format func(T) string
	// hcl writes it in a compute block (BlockArguments).
	hcl func(*Values) []Argument
	// text: its value is a text the service's answers may quote (texts).
	text bool
	// project is where a project's defaults hold it, and sent where their
	// update does; nil unless it is a project default
	// (Attribute.ProjectDefault).
	project func(*api.DefaultEndpointSettings) **T
	sent    func(*api.DefaultsSent) *T
}

func (f *field[T]) fromLive(dst *Values, ep *api.Endpoint) { *f.in(dst) = f.live(ep) }

func (f *field[T]) differences(before, after *Values, exact bool) []Change {
	b, a := *f.in(before), *f.in(after)
	same := f.equal(b, a)
	if exact {
		same = reflect.DeepEqual(b, a)
	}
	if same {
		return nil
	}
	return []Change{{Name: f.attr.Name, Before: plain(b), After: plain(a), Effect: f.effect(b, a)}}
}

func (f *field[T]) initial(v *Values) []Change {
	return []Change{{Name: f.attr.Name, Before: nil, After: plain(*f.in(v)), Effect: None}}
}

// plain is a value as a plan file reads back: a JSON string, number or
// bool. So a plan in memory and the same plan read from its file are equal.
func plain(v any) any {
	switch x := v.(type) {
	case api.EndpointType:
		return string(x)
	case int64:
		return float64(x)
	}
	return v
}

func (f *field[T]) owns(planName string) bool { return planName == f.attr.Name }

func (f *field[T]) setAfter(v *Values, a Change) error {
	x, err := f.decode(a.After)
	if err != nil {
		return fmt.Errorf("%s: %w", f.attr.Name, err)
	}
	*f.in(v) = x
	return nil
}

func (f *field[T]) display(value any) string {
	if value == nil {
		return "(unset)"
	}
	x, err := f.decode(value)
	if err != nil {
		return fmt.Sprint(value)
	}
	return f.format(x)
}

// atDefault compares with the value of the attribute's Default; a
// default by label or by place is no value, so nothing is at it.
func (f *field[T]) atDefault(value any) bool {
	d := f.attr.Default.Value
	if d == nil {
		return false
	}
	x, err := f.decode(value)
	def, derr := f.decode(d)
	return err == nil && derr == nil && f.equal(x, def)
}

func (f *field[T]) show(v *Values) string { return f.format(*f.in(v)) }

func (f *field[T]) showHidden(_ *Values, hidden string) string { return hidden }

func (f *field[T]) texts(v *Values) []string {
	if s, ok := any(*f.in(v)).(string); ok && f.text && s != "" {
		return []string{s}
	}
	return nil
}

func (f *field[T]) arguments(v *Values) []Argument { return f.hcl(v) }

func (f *field[T]) fromDefaults(dst *Values, d *api.DefaultEndpointSettings) {
	if f.project == nil {
		return
	}
	if d != nil {
		if p := *f.project(d); p != nil {
			*f.in(dst) = *p
			return
		}
	}
	x, _ := f.decode(f.attr.Default.Value) // TestProjectDefaultsAreTheTables checks it decodes
	*f.in(dst) = x
}

func (f *field[T]) toDefaults(s *api.DefaultsSent, v *Values) {
	if f.sent != nil {
		*f.sent(s) = *f.in(v)
	}
}

func (f *field[T]) toCreate(e *api.EndpointCreate, v *Values) { f.create(e, *f.in(v)) }

func (f *field[T]) toUpdate(u *api.EndpointUpdate, v *Values) bool {
	if f.patch == nil {
		return false
	}
	f.patch(u, *f.in(v))
	return true
}

func same[T comparable](a, b T) bool { return a == b }

// settings is a map attribute: each key is a plan attribute "name.key", set
// or unset, and the whole map goes into a request.
type settings struct {
	attr *Attribute
	live func(*api.Endpoint) map[string]string
	// project is a project's defaults' settings; sent, where their update
	// sends them.
	project func(*api.DefaultEndpointSettings) map[string]string
	sent    func(*api.DefaultsSent) *map[string]string
	effect  Disruption
}

// cloneSettings is a copy of m that Values can hold: never nil
// (Settings).
func cloneSettings(m map[string]string) map[string]string {
	return maps.Clone(Settings(m))
}

func (s *settings) fromLive(dst *Values, ep *api.Endpoint) {
	dst.PgSettings = cloneSettings(s.live(ep))
}

// differences compares key by key, in key order; a missing key is null. Two
// settings are equal only when their texts are: the service passes them to
// Postgres as written.
func (s *settings) differences(before, after *Values, _ bool) []Change {
	b, a := before.PgSettings, after.PgSettings
	if len(b) == 0 && len(a) == 0 {
		return nil // the common case: no settings on either side
	}
	keys := slices.Sorted(maps.Keys(b))
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []Change
	for _, k := range keys {
		bv, inB := b[k]
		av, inA := a[k]
		if inB == inA && av == bv {
			continue
		}
		out = append(out, Change{Name: s.attr.Name + "." + k, Before: optional(bv, inB), After: optional(av, inA), Effect: s.effect})
	}
	return out
}

func (s *settings) initial(v *Values) []Change {
	var out []Change
	for _, k := range slices.Sorted(maps.Keys(v.PgSettings)) {
		out = append(out, Change{Name: s.attr.Name + "." + k, Before: nil, After: v.PgSettings[k], Effect: None})
	}
	return out
}

func (s *settings) owns(planName string) bool {
	key, ok := strings.CutPrefix(planName, s.attr.Name+".")
	return ok && key != ""
}

// setAfter changes a copy of v's map, never the map itself, which v may
// share with the live endpoint it was copied from (derive).
func (s *settings) setAfter(v *Values, a Change) error {
	key := strings.TrimPrefix(a.Name, s.attr.Name+".")
	m := cloneSettings(v.PgSettings)
	switch x := a.After.(type) {
	case nil:
		delete(m, key)
	case string:
		m[key] = x
	default:
		return fmt.Errorf("%s: %v is not a setting's text", a.Name, a.After)
	}
	v.PgSettings = m
	return nil
}

func (s *settings) display(value any) string {
	switch x := value.(type) {
	case nil:
		return "(unset)"
	case string:
		return quoteEmpty(x)
	}
	return fmt.Sprint(value)
}

// atDefault: a setting the block does not write is unset, as the default
// (no settings) has it.
func (s *settings) atDefault(value any) bool { return value == nil }

func (s *settings) show(v *Values) string { return formatSettings(v.PgSettings, strconv.Quote) }

func (s *settings) showHidden(v *Values, hidden string) string {
	if len(v.PgSettings) == 0 {
		return hidden
	}
	return formatSettings(v.PgSettings, func(string) string { return hidden })
}

func (s *settings) texts(v *Values) []string {
	var out []string
	for _, x := range v.PgSettings {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// arguments write the whole map, as the block's one pg_settings argument.
func (s *settings) arguments(v *Values) []Argument {
	if len(v.PgSettings) == 0 {
		return []Argument{{s.attr.Name, cty.MapValEmpty(cty.String)}}
	}
	m := make(map[string]cty.Value, len(v.PgSettings))
	for k, x := range v.PgSettings {
		m[k] = cty.StringVal(x)
	}
	return []Argument{{s.attr.Name, cty.MapVal(m)}}
}

// fromDefaults: a project without settings has none, as a compute without them.
func (s *settings) fromDefaults(dst *Values, d *api.DefaultEndpointSettings) {
	var m map[string]string
	if d != nil {
		m = s.project(d)
	}
	dst.PgSettings = cloneSettings(m)
}

// toDefaults sends {} for no settings: the service keeps settings an update
// leaves out.
func (s *settings) toDefaults(u *api.DefaultsSent, v *Values) {
	*s.sent(u) = Settings(v.PgSettings)
}

func (s *settings) toCreate(e *api.EndpointCreate, v *Values) {
	// A create without settings leaves them out: the service refuses a
	// settings object it has nothing to do with.
	if len(v.PgSettings) > 0 {
		e.Settings = &api.SettingsRequest{PgSettings: maps.Clone(v.PgSettings)}
	}
}

func (s *settings) toUpdate(u *api.EndpointUpdate, v *Values) bool {
	u.Settings = &api.SettingsRequest{PgSettings: Settings(maps.Clone(v.PgSettings))}
	return true
}

func optional(v string, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

// Decoders of plan values.

func decodeString(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%v is not a string", v)
	}
	return s, nil
}

func decodeEndpointType(v any) (api.EndpointType, error) {
	var t api.EndpointType
	switch x := v.(type) {
	case string:
		t = api.EndpointType(x)
	case api.EndpointType:
		t = x
	}
	if t == api.EndpointTypeReadWrite || t == api.EndpointTypeReadOnly {
		return t, nil
	}
	return "", fmt.Errorf("%v is not %s or %s", v, api.EndpointTypeReadWrite, api.EndpointTypeReadOnly)
}

func decodeNumber(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	}
	return 0, fmt.Errorf("%v is not a number", v)
}

func decodeInteger(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), nil
		}
	}
	return 0, fmt.Errorf("%v is not a whole number", v)
}

func decodeBool(v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%v is not true or false", v)
	}
	return b, nil
}

func formatBool(b bool) string { return fmt.Sprint(b) }

// quoteEmpty prints a text as it is, or "" when it is empty (so that an
// empty name does not vanish from the line).
func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func (f *field[T]) bind(a *Attribute) { f.attr = a }

func (s *settings) bind(a *Attribute) { s.attr = a }

func (f *field[T]) fromDefault(dst *Values, label string) bool {
	x, ok := f.attr.Default.Of(label)
	if !ok {
		return true
	}
	v, err := f.decode(x)
	if err == nil {
		*f.in(dst) = v
	}
	return err == nil
}

// fromDefault gives each compute a map of its own, never nil (Settings):
// no two computes share the default's.
func (s *settings) fromDefault(dst *Values, label string) bool {
	x, _ := s.attr.Default.Of(label)
	m, ok := x.(map[string]string)
	dst.PgSettings = cloneSettings(m)
	return ok
}
