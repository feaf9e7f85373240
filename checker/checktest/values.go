package checktest

import (
	"fmt"
	"reflect"
)

// spare returns a deep copy of v in which every slice has room for room
// more elements: a handler that appends to it in place writes there.
func spare[T any](v T, room int) T { return copied(v, room) }

// reach returns a deep copy of v in which every slice runs to the
// capacity of v's, so that what a handler wrote past an input's length
// shows when two reaches are compared.
func reach[T any](v T) T { return copied(v, -1) }

func copied[T any](v T, room int) T {
	out := reflect.New(reflect.TypeFor[T]()).Elem()
	out.Set(deepCopy(reflect.ValueOf(&v).Elem(), room))
	return *out.Addr().Interface().(*T)
}

// deepCopy copies v's slices, maps, arrays and structs, through their
// exported fields (node states and messages are plain values; an
// unexported field is copied as it is), each slice of v's length plus
// room, or to its capacity when room < 0.
func deepCopy(v reflect.Value, room int) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n, c := v.Len(), v.Len()+room
		if room < 0 {
			v, n, c = v.Slice(0, v.Cap()), v.Cap(), v.Cap()
		}
		out := reflect.MakeSlice(v.Type(), n, c)
		for i := range n {
			out.Index(i).Set(deepCopy(v.Index(i), room))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(deepCopy(it.Key(), room), deepCopy(it.Value(), room))
		}
		return out
	case reflect.Array:
		out := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			out.Index(i).Set(deepCopy(v.Index(i), room))
		}
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out.Field(i).Set(deepCopy(v.Field(i), room))
			}
		}
		return out
	}
	return v
}

// firstDifference returns where want and got, two values of one type,
// first differ, as a Go selector from them (".Queue[1]", "[0].Msg"), and
// what each holds there; "" where they differ as wholes (a nil slice and
// an empty one, maps, unexported fields).
func firstDifference(at string, want, got reflect.Value) (string, string, string) {
	differ := func(a, b reflect.Value) bool { return !reflect.DeepEqual(a.Interface(), b.Interface()) }
	switch want.Kind() {
	case reflect.Struct:
		for i := range want.NumField() {
			if f := want.Type().Field(i); f.IsExported() && differ(want.Field(i), got.Field(i)) {
				return firstDifference(at+"."+f.Name, want.Field(i), got.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if want.Kind() == reflect.Slice && want.IsNil() != got.IsNil() {
			break
		}
		for i := range min(want.Len(), got.Len()) {
			if differ(want.Index(i), got.Index(i)) {
				return firstDifference(fmt.Sprintf("%s[%d]", at, i), want.Index(i), got.Index(i))
			}
		}
	}
	return at, show(want), show(got)
}

// show renders v as %+v does, and a nil slice or map as nil.
func show(v reflect.Value) string {
	switch {
	case !v.IsValid():
		return "nil"
	case (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.IsNil():
		return "nil"
	case v.Kind() == reflect.Slice && v.Len() == 0:
		return "[] (empty, not nil)"
	}
	return fmt.Sprintf("%+v", v)
}
