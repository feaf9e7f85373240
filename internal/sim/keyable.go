package sim

import (
	"fmt"
	"reflect"
)

// CheckKeyable reports whether values of type t have a canonical encoding:
// node states, messages, timers, actions and monitor states must, so that
// the checker can compare and intern them by content.
func CheckKeyable(t reflect.Type) error { return checkKeyable(t, t.String(), map[reflect.Type]bool{}) }

func checkKeyable(t reflect.Type, path string, seen map[reflect.Type]bool) error {
	if seen[t] {
		return nil // a recursive type: checked where it first appears
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return nil
	case reflect.Array, reflect.Slice:
		return checkKeyable(t.Elem(), path+"[]", seen)
	case reflect.Map:
		if err := checkKeyable(t.Key(), path+"[key]", seen); err != nil {
			return err
		}
		return checkKeyable(t.Elem(), path+"[value]", seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if err := checkKeyable(f.Type, path+"."+f.Name, seen); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s has kind %s: node states and messages must be plain values (no pointers, interfaces, channels or funcs)", path, t.Kind())
}
