package sim

import (
	"reflect"
	"unsafe"
)

// A clipper makes every slice a value holds full (capacity = length), so
// that an append to it copies: values that share a backing array (a state
// and the next one built from it, a message sent to many nodes) then
// cannot write into each other. A Walker clips every state and message it
// keeps instead of cloning them deeply, as a Stepper does when it interns
// them. offsets are those of the slice headers in the value's memory;
// ok is false for a type that holds slices of values that hold slices,
// which are cloned instead.
type clipper struct {
	offsets []uintptr
	ok      bool
}

func newClipper(t reflect.Type) clipper {
	c := clipper{ok: true}
	c.ok = c.add(t, 0)
	return c
}

func (c *clipper) add(t reflect.Type, off uintptr) bool {
	switch t.Kind() {
	case reflect.Slice:
		if needsClone(t.Elem()) {
			return false
		}
		c.offsets = append(c.offsets, off)
	case reflect.Array:
		if !needsClone(t.Elem()) {
			return true
		}
		for i := range t.Len() {
			if !c.add(t.Elem(), off+uintptr(i)*t.Elem().Size()) {
				return false
			}
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !c.add(f.Type, off+f.Offset) {
				return false
			}
		}
	case reflect.Map:
		// a map is shared as it is (a handler that writes into one it
		// was given mutates its input, which the purity check reports),
		// but slices in it would not be clipped
		return !needsClone(t.Key()) && !needsClone(t.Elem())
	}
	return true
}

// clip clips *p, whose type c was built for.
func clip[T any](c *clipper, p *T) {
	if !c.ok {
		v := reflect.ValueOf(p).Elem()
		v.Set(deepClone(v))
		return
	}
	for _, off := range c.offsets {
		h := (*struct {
			data     unsafe.Pointer
			len, cap int
		})(unsafe.Add(unsafe.Pointer(p), off))
		h.cap = h.len
	}
}
