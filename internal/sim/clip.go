package sim

import (
	"reflect"
	"unsafe"
)

// A clipper makes every slice a value holds full (capacity = length), at
// every depth, so that an append to any of them copies: values that share
// backing arrays (a state and the next one built from it, a message sent
// to many nodes) then cannot write into each other. A Walker clips every
// state and message it keeps instead of cloning them deeply, as a Stepper
// does when it interns them: clipping reads the value and writes no more
// than a few capacities, where a clone allocates it all again. ok is false
// for a type clipping cannot reach into (a map holding slices, a type
// that holds itself), whose values are cloned instead.
type clipper struct {
	slices []clipSlice
	ok     bool
}

// clipSlice is a slice header at offset off in a value's memory; elem
// clips its elements (of size bytes each), nil where they hold no slice.
type clipSlice struct {
	off  uintptr
	elem *clipper
	size uintptr
}

func newClipper(t reflect.Type) clipper {
	return *buildClipper(t, map[reflect.Type]bool{})
}

// buildClipper builds t's clipper; open holds the types being built, to
// turn down a type that holds itself.
func buildClipper(t reflect.Type, open map[reflect.Type]bool) *clipper {
	if open[t] {
		return &clipper{}
	}
	open[t] = true
	defer delete(open, t)
	c := &clipper{ok: true}
	c.ok = c.add(t, 0, open)
	return c
}

func (c *clipper) add(t reflect.Type, off uintptr, open map[reflect.Type]bool) bool {
	switch t.Kind() {
	case reflect.Slice:
		s := clipSlice{off: off, size: t.Elem().Size()}
		if needsClone(t.Elem()) {
			if s.elem = buildClipper(t.Elem(), open); !s.elem.ok {
				return false
			}
		}
		c.slices = append(c.slices, s)
	case reflect.Array:
		if !needsClone(t.Elem()) {
			return true
		}
		for i := range t.Len() {
			if !c.add(t.Elem(), off+uintptr(i)*t.Elem().Size(), open) {
				return false
			}
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !c.add(f.Type, off+f.Offset, open) {
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

// sliceHeader is the memory layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// clip clips *p, whose type c was built for.
func clip[T any](c *clipper, p *T) {
	if !c.ok {
		// by value: p itself must not escape, or every value clipped
		// would move to the heap
		*p = deepClone(reflect.ValueOf(*p)).Interface().(T)
		return
	}
	c.clipAt(unsafe.Pointer(p))
}

// clipAt clips the value at p. Elements are clipped where they lie, in
// arrays the value may share with others (with the state a handler was
// given, say): a capacity is written only where it is not the length
// already, so a value clipped once is only read from then on.
func (c *clipper) clipAt(p unsafe.Pointer) {
	for _, s := range c.slices {
		h := (*sliceHeader)(unsafe.Add(p, s.off))
		if h.cap != h.len {
			h.cap = h.len
		}
		if s.elem != nil {
			for i := range h.len {
				s.elem.clipAt(unsafe.Add(h.data, uintptr(i)*s.size))
			}
		}
	}
}
