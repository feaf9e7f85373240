package sim

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"

	"github.com/vigil-check/vigil/model"
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
	if err := model.CheckKeyable(t); err != nil {
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
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(deepClone(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(deepClone(it.Key()), deepClone(it.Value()))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := range v.NumField() {
			if f := c.Field(i); f.CanSet() && needsClone(f.Type()) {
				f.Set(deepClone(v.Field(i)))
			} else if !f.CanSet() && needsClone(f.Type()) {
				panic(fmt.Sprintf("%s.%s: unexported fields holding slices or maps cannot be copied safely; export the field", v.Type(), v.Type().Field(i).Name))
			}
		}
		return c
	case reflect.Array:
		if !needsClone(v.Type()) {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			c.Index(i).Set(deepClone(v.Index(i)))
		}
		return c
	}
	return v
}

func needsClone(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		return true
	case reflect.Array:
		return needsClone(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if needsClone(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

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
