package sim

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"unsafe"
)

// AppendKey appends the canonical encoding of v to b: equal values (by
// content: maps in key order, slices by elements) encode to equal bytes, and
// different values to different bytes. It panics on values that have no
// canonical form (pointers, channels, funcs, interfaces); CheckKeyable
// reports that up front.
func AppendKey(b []byte, v any) []byte {
	rv := reflect.ValueOf(v)
	return encoderFor(rv.Type())(b, rv)
}

// appendKeyOf is AppendKey of *p, read in place: an addressable value
// lets structs and arrays of plain numbers encode straight from memory.
func appendKeyOf[T any](b []byte, p *T) []byte {
	rv := reflect.ValueOf(p).Elem()
	if rv.Kind() == reflect.Interface {
		return AppendKey(b, *p) // the dynamic value's key, as AppendKey gives it
	}
	return encoderFor(rv.Type())(b, rv)
}

type encoder func(b []byte, v reflect.Value) []byte

var (
	encoders   sync.Map // reflect.Type -> encoder, complete ones only
	encodersMu sync.Mutex
	building   = map[reflect.Type]*encoder{} // guarded by encodersMu
)

func encoderFor(t reflect.Type) encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(encoder)
	}
	if err := CheckKeyable(t); err != nil {
		panic(err)
	}
	encodersMu.Lock()
	defer encodersMu.Unlock()
	return encoderLocked(t)
}

// encoderLocked builds t's encoder with encodersMu held. A recursive type
// meets itself while being built and gets a forwarding closure to the
// encoder under construction; only complete encoders are published.
func encoderLocked(t reflect.Type) encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(encoder)
	}
	if cell, ok := building[t]; ok {
		return func(b []byte, v reflect.Value) []byte { return (*cell)(b, v) }
	}
	cell := new(encoder)
	building[t] = cell
	*cell = buildEncoder(t)
	delete(building, t)
	encoders.Store(t, *cell)
	return *cell
}

func buildEncoder(t reflect.Type) encoder {
	if leaves, ok := flatLeaves(t, 0, nil); ok && (t.Kind() == reflect.Struct || t.Kind() == reflect.Array) {
		slow := buildValueEncoder(t)
		return func(b []byte, v reflect.Value) []byte {
			if !v.CanAddr() {
				return slow(b, v)
			}
			return encodeFlat(b, v.Addr().UnsafePointer(), leaves)
		}
	}
	if t.Kind() == reflect.Slice {
		if leaves, ok := flatLeaves(t.Elem(), 0, nil); ok {
			size := t.Elem().Size()
			return func(b []byte, v reflect.Value) []byte {
				n := v.Len()
				b = binary.AppendUvarint(b, uint64(n))
				if n == 0 {
					return b
				}
				base := v.UnsafePointer()
				for i := range n {
					b = encodeFlat(b, unsafe.Add(base, uintptr(i)*size), leaves)
				}
				return b
			}
		}
	}
	return buildValueEncoder(t)
}

// A leaf is a number or a bool at an offset within a flat value: one of
// booleans and numbers only, in structs and arrays, which encodes
// straight from memory, to the same bytes as through reflection.
type leaf struct {
	off  uintptr
	kind reflect.Kind
}

// flatLeaves appends the leaves of t, at offset off, and reports whether t
// is flat.
func flatLeaves(t reflect.Type, off uintptr, out []leaf) ([]leaf, bool) {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return append(out, leaf{off, t.Kind()}), true
	case reflect.Array:
		for i := range t.Len() {
			var ok bool
			if out, ok = flatLeaves(t.Elem(), off+uintptr(i)*t.Elem().Size(), out); !ok {
				return nil, false
			}
		}
		return out, true
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			var ok bool
			if out, ok = flatLeaves(f.Type, off+f.Offset, out); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

func encodeFlat(b []byte, p unsafe.Pointer, leaves []leaf) []byte {
	for _, l := range leaves {
		q := unsafe.Add(p, l.off)
		switch l.kind {
		case reflect.Bool:
			if *(*bool)(q) {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		case reflect.Int:
			b = binary.AppendVarint(b, int64(*(*int)(q)))
		case reflect.Int8:
			b = binary.AppendVarint(b, int64(*(*int8)(q)))
		case reflect.Int16:
			b = binary.AppendVarint(b, int64(*(*int16)(q)))
		case reflect.Int32:
			b = binary.AppendVarint(b, int64(*(*int32)(q)))
		case reflect.Int64:
			b = binary.AppendVarint(b, *(*int64)(q))
		case reflect.Uint:
			b = binary.AppendUvarint(b, uint64(*(*uint)(q)))
		case reflect.Uint8:
			b = binary.AppendUvarint(b, uint64(*(*uint8)(q)))
		case reflect.Uint16:
			b = binary.AppendUvarint(b, uint64(*(*uint16)(q)))
		case reflect.Uint32:
			b = binary.AppendUvarint(b, uint64(*(*uint32)(q)))
		case reflect.Uint64:
			b = binary.AppendUvarint(b, *(*uint64)(q))
		case reflect.Uintptr:
			b = binary.AppendUvarint(b, uint64(*(*uintptr)(q)))
		case reflect.Float32:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(*(*float32)(q))))
		case reflect.Float64:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*(*float64)(q)))
		}
	}
	return b
}

// buildValueEncoder encodes through reflection, any keyable type.
func buildValueEncoder(t reflect.Type) encoder {
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, v reflect.Value) []byte {
			if v.Bool() {
				return append(b, 1)
			}
			return append(b, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value) []byte { return binary.AppendVarint(b, v.Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(b []byte, v reflect.Value) []byte { return binary.AppendUvarint(b, v.Uint()) }
	case reflect.Float32, reflect.Float64:
		return func(b []byte, v reflect.Value) []byte {
			return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float()))
		}
	case reflect.String:
		return func(b []byte, v reflect.Value) []byte {
			s := v.String()
			return append(binary.AppendUvarint(b, uint64(len(s))), s...)
		}
	case reflect.Array:
		elem := encoderLocked(t.Elem())
		return func(b []byte, v reflect.Value) []byte {
			for i := range v.Len() {
				b = elem(b, v.Index(i))
			}
			return b
		}
	case reflect.Slice:
		elem := encoderLocked(t.Elem())
		return func(b []byte, v reflect.Value) []byte {
			b = binary.AppendUvarint(b, uint64(v.Len()))
			for i := range v.Len() {
				b = elem(b, v.Index(i))
			}
			return b
		}
	case reflect.Map:
		key, elem := encoderLocked(t.Key()), encoderLocked(t.Elem())
		return func(b []byte, v reflect.Value) []byte {
			// Entries in the order of their encoded keys: canonical whatever
			// the map's iteration order.
			type entry struct{ k, kv []byte }
			entries := make([]entry, 0, v.Len())
			for it := v.MapRange(); it.Next(); {
				k := key(nil, it.Key())
				entries = append(entries, entry{k, elem(slices.Clone(k), it.Value())})
			}
			slices.SortFunc(entries, func(x, y entry) int { return bytes.Compare(x.k, y.k) })
			b = binary.AppendUvarint(b, uint64(len(entries)))
			for _, e := range entries {
				b = append(b, e.kv...)
			}
			return b
		}
	case reflect.Struct:
		fields := make([]encoder, t.NumField())
		for i := range fields {
			fields[i] = encoderLocked(t.Field(i).Type)
		}
		return func(b []byte, v reflect.Value) []byte {
			for i, f := range fields {
				b = f(b, v.Field(i))
			}
			return b
		}
	}
	panic("unreachable: checked by CheckKeyable")
}

// deepClone returns a copy of v sharing no slice or map storage with it, with
// every slice's capacity equal to its length, so that a handler appending to
// a stored state's slice always reallocates instead of writing into storage
// another interned state may share.
func deepClone(v reflect.Value) reflect.Value {
	if c := clonerFor(v.Type()); c != nil {
		return c(v)
	}
	return v
}

// sharesMemory reports whether a and b share storage a write could go
// through: the array of a slice, a map, a pointer's target, at any depth.
// Strings are never written, so they do not count.
func sharesMemory(a, b reflect.Value) bool {
	in := storage(a, nil, map[uintptr]bool{})
	if len(in) == 0 {
		return false
	}
	for _, s := range storage(b, nil, map[uintptr]bool{}) {
		for _, t := range in {
			if s.lo < t.hi && t.lo < s.hi {
				return true
			}
		}
	}
	return false
}

// span is a block of memory, [lo, hi).
type span struct{ lo, hi uintptr }

// storage appends to out the memory v's slices, maps and pointers reach
// (see sharesMemory), each block once (seen).
func storage(v reflect.Value, out []span, seen map[uintptr]bool) []span {
	if !v.IsValid() {
		return out
	}
	reach := func(p uintptr, size uintptr) bool {
		if p == 0 || seen[p] {
			return false
		}
		seen[p] = true
		out = append(out, span{p, p + max(size, 1)})
		return true
	}
	switch v.Kind() {
	case reflect.Slice:
		if v.Cap() > 0 && reach(v.Pointer(), uintptr(v.Cap())*v.Type().Elem().Size()) {
			for i := range v.Len() {
				out = storage(v.Index(i), out, seen)
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			out = storage(v.Index(i), out, seen)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			out = storage(v.Field(i), out, seen)
		}
	case reflect.Pointer:
		if !v.IsNil() && reach(v.Pointer(), v.Type().Elem().Size()) {
			out = storage(v.Elem(), out, seen)
		}
	case reflect.Map:
		if !v.IsNil() && reach(v.Pointer(), 1) {
			for it := v.MapRange(); it.Next(); {
				out = storage(it.Key(), out, seen)
				out = storage(it.Value(), out, seen)
			}
		}
	case reflect.Interface:
		out = storage(v.Elem(), out, seen)
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		reach(v.Pointer(), 1)
	}
	return out
}

// canBeNil reports whether a value of type t may be nil and then holds
// nothing to copy.
func canBeNil(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
		return true
	}
	return false
}

// A cloner copies a value of one type deeply (see deepClone); types whose
// values hold no slice or map have none. Cloners are built once per type,
// as encoders are, so that interning a state costs no reflection over its
// type.
type cloner func(v reflect.Value) reflect.Value

var cloners sync.Map // reflect.Type -> *clonerCell

type clonerCell struct {
	once sync.Once
	c    cloner
}

func clonerFor(t reflect.Type) cloner {
	cell, _ := cloners.LoadOrStore(t, &clonerCell{})
	cc := cell.(*clonerCell)
	cc.once.Do(func() { cc.c = buildCloner(t) })
	return cc.c
}

func buildCloner(t reflect.Type) cloner {
	if !needsClone(t) {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice:
		return func(v reflect.Value) reflect.Value {
			if v.IsNil() {
				return v
			}
			c := reflect.MakeSlice(t, v.Len(), v.Len())
			elem := clonerFor(t.Elem())
			if elem == nil {
				reflect.Copy(c, v)
				return c
			}
			nilable := canBeNil(t.Elem())
			for i := range v.Len() {
				// c holds zeros: a nil element (a monitor's per-node set,
				// before the node has any) needs no copy
				if e := v.Index(i); !nilable || !e.IsNil() {
					c.Index(i).Set(elem(e))
				}
			}
			return c
		}
	case reflect.Map:
		return func(v reflect.Value) reflect.Value {
			if v.IsNil() {
				return v
			}
			c := reflect.MakeMapWithSize(t, v.Len())
			key, elem := clonerFor(t.Key()), clonerFor(t.Elem())
			for it := v.MapRange(); it.Next(); {
				k, e := it.Key(), it.Value()
				if key != nil {
					k = key(k)
				}
				if elem != nil {
					e = elem(e)
				}
				c.SetMapIndex(k, e)
			}
			return c
		}
	case reflect.Struct:
		type field struct {
			i int
			c cloner
		}
		var fields []field
		for i := range t.NumField() {
			f := t.Field(i)
			if !needsClone(f.Type) {
				continue
			}
			if !f.IsExported() {
				msg := fmt.Sprintf("%s.%s: unexported fields holding slices or maps cannot be copied safely; export the field", t, f.Name)
				return func(reflect.Value) reflect.Value { panic(msg) }
			}
			fields = append(fields, field{i, clonerFor(f.Type)})
		}
		return func(v reflect.Value) reflect.Value {
			c := reflect.New(t).Elem()
			c.Set(v)
			for _, f := range fields {
				c.Field(f.i).Set(f.c(v.Field(f.i)))
			}
			return c
		}
	case reflect.Array:
		elem := clonerFor(t.Elem())
		return func(v reflect.Value) reflect.Value {
			c := reflect.New(t).Elem()
			nilable := canBeNil(t.Elem())
			for i := range v.Len() {
				// c holds zeros: a nil element (a monitor's per-node set,
				// before the node has any) needs no copy
				if e := v.Index(i); !nilable || !e.IsNil() {
					c.Index(i).Set(elem(e))
				}
			}
			return c
		}
	}
	return nil
}

// needsClone reports whether values of t hold slices or maps.
func needsClone(t reflect.Type) bool {
	if v, ok := cloneNeeds.Load(t); ok {
		return v.(bool)
	}
	need := false
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		need = true
	case reflect.Array:
		need = needsClone(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if needsClone(t.Field(i).Type) {
				need = true
				break
			}
		}
	}
	cloneNeeds.Store(t, need)
	return need
}

var cloneNeeds sync.Map // reflect.Type -> bool

// decodeKey rebuilds a value of type t from its encoding (see AppendKey),
// to show and put back what a handler or monitor wrote into: the checks
// keep no copy of an input, only its key. It reports false for a type it
// cannot rebuild (a struct with unexported fields) or a malformed key.
// Empty slices come back nil, empty maps non-nil: they encode alike.
func decodeKey(t reflect.Type, key string) (v reflect.Value, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	v = reflect.New(t).Elem()
	rest := decodeInto(v, []byte(key))
	return v, len(rest) == 0
}

func decodeInto(v reflect.Value, b []byte) []byte {
	uvarint := func() int {
		x, n := binary.Uvarint(b)
		if n <= 0 {
			panic("bad key")
		}
		b = b[n:]
		return int(x)
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(b[0] == 1)
		return b[1:]
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, n := binary.Varint(b)
		if n <= 0 {
			panic("bad key")
		}
		v.SetInt(x)
		return b[n:]
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(uvarint()))
		return b
	case reflect.Float32, reflect.Float64:
		v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		return b[8:]
	case reflect.String:
		n := uvarint()
		v.SetString(string(b[:n]))
		return b[n:]
	case reflect.Array:
		for i := range v.Len() {
			b = decodeInto(v.Index(i), b)
		}
		return b
	case reflect.Slice:
		if n := uvarint(); n > 0 {
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				b = decodeInto(s.Index(i), b)
			}
			v.Set(s)
		}
		return b
	case reflect.Map:
		n := uvarint()
		m := reflect.MakeMapWithSize(v.Type(), n)
		for range n {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			b = decodeInto(k, b)
			b = decodeInto(e, b)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
		return b
	case reflect.Struct:
		for i := range v.NumField() {
			b = decodeInto(v.Field(i), b) // panics on an unexported field: not settable
		}
		return b
	}
	panic("no canonical form")
}
