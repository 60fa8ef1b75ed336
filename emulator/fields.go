package emulator

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The emulator refuses a request field it does not model with a 400 that names it,
// rather than answer 200 and drop it, since a stand-in that takes more than it honours
// hides a client's mistakes: a client that sends expires_at or
// project settings learns at once that the emulator would not honour them. What it
// models is exactly what its body types decode, so those types are the list:
// unknownField walks a decoded JSON value beside the Go type it is decoded into.

// unknownField returns the path of the first field of v (decoded JSON) that type t
// has no place for, such as "project.settings" or "endpoints[1].foo"; "" if none. A
// field set to null is not counted.
// Object keys are compared exactly, unlike encoding/json, which also takes
// "Branch_ID" for branch_id.
func unknownField(v any, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[json.RawMessage]() {
		return ""
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return "" // not an object: decoding reports the type error
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			f, ok := fields[k]
			if !ok {
				if obj[k] == nil {
					continue // null asks for nothing: "expires_at": null removes no expiry
				}
				return joinPath(path, k)
			}
			if p := unknownField(obj[k], f, joinPath(path, k)); p != "" {
				return p
			}
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return ""
		}
		for i, item := range list {
			if p := unknownField(item, t.Elem(), path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
	}
	// Maps (pg_settings and the like) take any key; scalars have no fields.
	return ""
}

// jsonFields maps the JSON names of a struct's fields, those of embedded structs
// included, to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
		case f.IsExported():
			if name == "" {
				name = f.Name
			}
			out[name] = f.Type
		}
	}
	return out
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
