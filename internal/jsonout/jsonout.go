package jsonout

import (
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"sync"
)

// Marshal is json.Marshal with every nil slice and map reached written as []
// and {}.
func Marshal(v any) ([]byte, error) { return json.Marshal(Filled(v)) }

// Encode writes v indented by two spaces, followed by a newline, as
// json.Encoder with SetIndent("", "  ") does, every nil slice and map reached
// written as [] and {}.
func Encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(Filled(v))
}

// Filled returns v with every nil slice and map it reaches replaced by an
// empty one, copying what holds them; v itself is not changed. A value with
// nothing to fill comes back as it was.
func Filled(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if out, changed := fill(rv); changed {
		return out.Interface()
	}
	return v
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// ownMarshal reports whether t (or *t) writes itself.
func ownMarshal(t reflect.Type) bool {
	return t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)
}

// mayHold caches whether a value of a type can reach a slice or map to fill
// (through fields, elements, pointers or interfaces).
var mayHold sync.Map // reflect.Type → bool

func canHold(t reflect.Type) bool {
	if b, ok := mayHold.Load(t); ok {
		return b.(bool)
	}
	mayHold.Store(t, true) // a recursive type: assume so while it is looked at
	b := holds(t, map[reflect.Type]bool{})
	mayHold.Store(t, b)
	return b
}

func holds(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if ownMarshal(t) {
		return false
	}
	switch t.Kind() {
	case reflect.Interface, reflect.Map:
		return true
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8 || ownMarshal(t.Elem())
	case reflect.Pointer, reflect.Array:
		return holds(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if _, skip := jsonName(f); !skip && holds(f.Type, seen) {
				return true
			}
		}
	}
	return false
}

// jsonName is the name encoding/json gives a field, and whether it skips it.
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", true
	}
	if !f.IsExported() {
		// an embedded struct of an unexported type is not walked: its
		// fields are not settable through it
		return "", true
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, false
}

// fill returns v with its nil slices and maps filled, and whether anything
// was; when nothing was, v comes back as it was.
func fill(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	if !canHold(t) {
		return v, false
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		e, changed := fill(v.Elem())
		if !changed {
			return v, false
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(e)
		return p, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, changed := fill(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(t).Elem()
		out.Set(e)
		return out, true
	case reflect.Slice:
		if v.IsNil() {
			return reflect.MakeSlice(t, 0, 0), true
		}
		if !canHold(t.Elem()) {
			return v, false
		}
		return fillElems(v, func(n int) reflect.Value { return reflect.MakeSlice(t, n, n) })
	case reflect.Array:
		if !canHold(t.Elem()) {
			return v, false
		}
		return fillElems(v, func(int) reflect.Value { return reflect.New(t).Elem() })
	case reflect.Map:
		if v.IsNil() {
			return reflect.MakeMap(t), true
		}
		var out reflect.Value
		iter := v.MapRange()
		for iter.Next() {
			e, changed := fill(iter.Value())
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeMapWithSize(t, v.Len())
				for _, k := range v.MapKeys() {
					out.SetMapIndex(k, v.MapIndex(k))
				}
			}
			out.SetMapIndex(iter.Key(), e)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Struct:
		var out reflect.Value
		for i := range t.NumField() {
			if _, skip := jsonName(t.Field(i)); skip {
				continue
			}
			e, changed := fill(v.Field(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(t).Elem()
				out.Set(v)
			}
			out.Field(i).Set(e)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	}
	return v, false
}

// fillElems fills a slice's or an array's elements, copying it into
// make(n) when one changes.
func fillElems(v reflect.Value, make func(n int) reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	for i := range v.Len() {
		e, changed := fill(v.Index(i))
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = make(v.Len())
			reflect.Copy(out, v)
		}
		out.Index(i).Set(e)
	}
	if out.IsValid() {
		return out, true
	}
	return v, false
}
