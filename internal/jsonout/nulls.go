package jsonout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// NullLists decodes data, a JSON document written from a value of type t, and
// returns the paths (as `.results[0].hosts`) where a field of t that is a
// slice (but []byte) or a map is null. What t does not say (an interface's
// contents, keys t has no field for) is not checked.
func NullLists(t reflect.Type, data []byte) ([]string, error) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	var out []string
	nulls(t, doc, "", &out)
	slices.Sort(out)
	return out, nil
}

func nulls(t reflect.Type, v any, path string, out *[]string) {
	if ownMarshal(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v != nil {
			nulls(t.Elem(), v, path, out)
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return
		}
		if v == nil {
			*out = append(*out, path)
			return
		}
		if arr, ok := v.([]any); ok {
			for i, e := range arr {
				nulls(t.Elem(), e, fmt.Sprintf("%s[%d]", path, i), out)
			}
		}
	case reflect.Map:
		if v == nil {
			*out = append(*out, path)
			return
		}
		if obj, ok := v.(map[string]any); ok {
			for k, e := range obj {
				nulls(t.Elem(), e, path+"."+k, out)
			}
		}
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, f := range fields(t) {
			if e, ok := obj[f.name]; ok {
				nulls(f.typ, e, path+"."+f.name, out)
			}
		}
	}
}

type field struct {
	name string
	typ  reflect.Type
}

// fields are a struct's fields as encoding/json names them, an embedded
// struct's without a name of their own promoted (the outer name wins).
func fields(t reflect.Type) []field {
	var out []field
	var promoted []field
	for i := range t.NumField() {
		f := t.Field(i)
		name, skip := jsonName(f)
		if skip {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && tag == "" && ft.Kind() == reflect.Struct {
			promoted = append(promoted, fields(ft)...)
			continue
		}
		out = append(out, field{name, f.Type})
	}
	for _, p := range promoted {
		if !slices.ContainsFunc(out, func(f field) bool { return f.name == p.name }) {
			out = append(out, p)
		}
	}
	return out
}
