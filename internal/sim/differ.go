package sim

import (
	"reflect"
	"unsafe"
)

// A differ tells two values of one type apart without encoding them,
// where it can. The integers and booleans a value holds in its own memory
// (through structs and arrays, never through a slice, map or pointer), and
// the lengths of the slices and strings it holds there, each encode to
// bytes of their own in its key (see AppendKey): two values that differ in
// one of them have different keys. A Walker asks it before it compares
// two states by their keys, which costs as much as the states are large;
// most steps that change a state change a number or a length in it.
// Floats are left out: a float32 NaN's payload may not survive the
// encoding's widening to float64.
type differ struct {
	words []word
}

// A word is a part of a value's memory: size bytes at off.
type word struct {
	off, size uintptr
}

func newDiffer(t reflect.Type) differ {
	var d differ
	d.add(t, 0)
	return d
}

func (d *differ) add(t reflect.Type, off uintptr) {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.words = append(d.words, word{off, t.Size()})
	case reflect.Slice, reflect.String:
		// a slice header is {data, len, cap}, a string's {data, len}
		d.words = append(d.words, word{off + unsafe.Sizeof(uintptr(0)), unsafe.Sizeof(0)})
	case reflect.Array:
		for i := range t.Len() {
			d.add(t.Elem(), off+uintptr(i)*t.Elem().Size())
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			d.add(f.Type, off+f.Offset)
		}
	}
}

// differs reports whether *a and *b, of the type d was built for, surely
// have different keys; false says nothing.
func differs[T any](d *differ, a, b *T) bool {
	pa, pb := unsafe.Pointer(a), unsafe.Pointer(b)
	for _, w := range d.words {
		x, y := unsafe.Add(pa, w.off), unsafe.Add(pb, w.off)
		switch w.size {
		case 1:
			if *(*uint8)(x) != *(*uint8)(y) {
				return true
			}
		case 2:
			if *(*uint16)(x) != *(*uint16)(y) {
				return true
			}
		case 4:
			if *(*uint32)(x) != *(*uint32)(y) {
				return true
			}
		default:
			if *(*uint64)(x) != *(*uint64)(y) {
				return true
			}
		}
	}
	return false
}
