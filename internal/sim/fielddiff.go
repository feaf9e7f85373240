package sim

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"unicode/utf8"
)

// A difference is where two values first differ and what each holds
// there. A fault names the field a handler changed, or in which two of its
// calls disagreed, with it: the values' own renderings (a user's String
// method, %+v) may not show that field at all.
type difference struct {
	// Path is a Go selector from the values to the first place they
	// differ: ".Votes[2]", ".Seen[3].At", `.Acks["n1"]`; "" for the values
	// themselves (two plain numbers).
	Path string
	// A and B render what each value holds at Path (%v, truncated), or
	// "(none)" where one has no such element or key.
	A, B string
}

// maxRendered is the most runes of a value a difference shows: enough for
// a number, a name or a small struct, not for a whole state.
const maxRendered = 80

// firstDifference returns where a and b first differ (see difference):
// structs field by field, arrays and slices element by element, maps key
// by key in the order of the keys' renderings, pointers and interfaces
// followed; unexported fields are read, not set. Equality is the
// canonical encoding's (see AppendKey): a nil slice or map equals an empty
// one, floats are equal when their bits are. It reports false when a and b
// are equal.
func firstDifference(a, b any) (difference, bool) {
	var d diffWalk
	return d.walk("", reflect.ValueOf(a), reflect.ValueOf(b))
}

// diffWalk walks two values side by side; seen holds the pairs of pointers
// already being compared, so that cyclic values end (made at the first).
type diffWalk struct {
	seen map[[2]uintptr]bool
}

func (d *diffWalk) walk(path string, a, b reflect.Value) (difference, bool) {
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() == b.IsValid() {
			return difference{}, false
		}
		return difference{path, render(a), render(b)}, true
	}
	if a.Type() != b.Type() {
		return difference{path, renderTyped(a), renderTyped(b)}, true
	}
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if diff, ok := d.walk(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); ok {
				return diff, true
			}
		}
		return difference{}, false
	case reflect.Array, reflect.Slice:
		return d.elements(path, a, b)
	case reflect.Map:
		return d.entries(path, a, b)
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() == b.IsNil() {
				return difference{}, false
			}
			return difference{path, render(a), render(b)}, true
		}
		if a.Kind() == reflect.Pointer {
			pair := [2]uintptr{a.Pointer(), b.Pointer()}
			if pair[0] == pair[1] || d.seen[pair] {
				return difference{}, false
			}
			if d.seen == nil {
				d.seen = map[[2]uintptr]bool{}
			}
			d.seen[pair] = true
		}
		return d.walk(path, a.Elem(), b.Elem())
	}
	if sameLeaf(a, b) {
		return difference{}, false
	}
	return difference{path, render(a), render(b)}, true
}

// elements compares arrays or slices element by element; where one is
// longer, its first extra element differs from "(none)".
func (d *diffWalk) elements(path string, a, b reflect.Value) (difference, bool) {
	n := min(a.Len(), b.Len())
	for i := range n {
		if diff, ok := d.walk(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); ok {
			return diff, true
		}
	}
	switch {
	case a.Len() > n:
		return difference{fmt.Sprintf("%s[%d]", path, n), render(a.Index(n)), "(none)"}, true
	case b.Len() > n:
		return difference{fmt.Sprintf("%s[%d]", path, n), "(none)", render(b.Index(n))}, true
	}
	return difference{}, false
}

// entries compares maps key by key, in the order of the keys' renderings
// (the walk itself must not depend on map order).
func (d *diffWalk) entries(path string, a, b reflect.Value) (difference, bool) {
	type entry struct {
		name string
		key  reflect.Value
	}
	var keys []entry
	seen := map[string]bool{}
	for _, m := range []reflect.Value{a, b} {
		for it := m.MapRange(); it.Next(); {
			name := keyName(it.Key())
			if !seen[name] {
				seen[name] = true
				keys = append(keys, entry{name, it.Key()})
			}
		}
	}
	slices.SortFunc(keys, func(x, y entry) int { return cmp.Compare(x.name, y.name) })
	for _, k := range keys {
		at := path + "[" + k.name + "]"
		x, y := a.MapIndex(k.key), b.MapIndex(k.key)
		switch {
		case !x.IsValid() && !y.IsValid():
			// a key whose rendering two keys share, found under the other
		case !x.IsValid():
			return difference{at, "(none)", render(y)}, true
		case !y.IsValid():
			return difference{at, render(x), "(none)"}, true
		default:
			if diff, ok := d.walk(at, x, y); ok {
				return diff, true
			}
		}
	}
	return difference{}, false
}

// keyName renders a map key in a path: strings quoted, anything else %v.
func keyName(k reflect.Value) string {
	if k.Kind() == reflect.String {
		return fmt.Sprintf("%q", k.String())
	}
	return render(k)
}

// sameLeaf compares two values of one type that hold no other values.
func sameLeaf(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		return math.Float64bits(real(x)) == math.Float64bits(real(y)) && math.Float64bits(imag(x)) == math.Float64bits(imag(y))
	case reflect.String:
		return a.String() == b.String()
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return a.Pointer() == b.Pointer()
	}
	return false
}

// render is v as %v shows it (a reflect.Value is printed as the value it
// holds, unexported fields included), cut to maxRendered runes.
func render(v reflect.Value) string {
	if !v.IsValid() {
		return "nil"
	}
	return truncate(fmt.Sprintf("%v", v))
}

// renderTyped is render with v's type, for two values of different types.
func renderTyped(v reflect.Value) string {
	return truncate(fmt.Sprintf("%v (%v)", v, v.Type()))
}

func truncate(s string) string {
	if utf8.RuneCountInString(s) <= maxRendered {
		return s
	}
	r := []rune(s)
	return string(r[:maxRendered-1]) + "…"
}
