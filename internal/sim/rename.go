package sim

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/vigil-check/vigil/model"
)

// A renamer copies a value of one type with its nodes renamed, node i to
// to[i] (see model.Symmetric); a type that holds no node id has none.
// Renamers are built once per type, as encoders are.
type renamer func(v reflect.Value, to []model.NodeID) reflect.Value

var (
	renamers   sync.Map // reflect.Type -> renamerEntry, complete ones only
	renamersMu sync.Mutex
	renaming   = map[reflect.Type]*renamer{} // guarded by renamersMu
)

type renamerEntry struct {
	r   renamer
	err error
}

var (
	nodeIDType  = reflect.TypeFor[model.NodeID]()
	renamerType = reflect.TypeFor[model.Renamer]()
)

// renamerFor returns t's renamer (nil: t holds no node id), or why
// values of t cannot be renamed.
func renamerFor(t reflect.Type) (renamer, error) {
	if e, ok := renamers.Load(t); ok {
		return e.(renamerEntry).r, e.(renamerEntry).err
	}
	renamersMu.Lock()
	defer renamersMu.Unlock()
	return renamerLocked(t)
}

func renamerLocked(t reflect.Type) (renamer, error) {
	if e, ok := renamers.Load(t); ok {
		return e.(renamerEntry).r, e.(renamerEntry).err
	}
	if cell, ok := renaming[t]; ok {
		// a recursive type: forward to the renamer under construction,
		// which renames (a type holding itself may hold node ids)
		return func(v reflect.Value, to []model.NodeID) reflect.Value { return (*cell)(v, to) }, nil
	}
	cell := new(renamer)
	renaming[t] = cell
	r, err := buildRenamer(t)
	if r == nil && err == nil && recursive(t) {
		r = func(v reflect.Value, _ []model.NodeID) reflect.Value { return v }
	}
	*cell = r
	delete(renaming, t)
	renamers.Store(t, renamerEntry{r, err})
	return r, err
}

// recursive reports whether t holds itself, whose renamer may have been
// handed out as a forward before t turned out to hold no node id.
func recursive(t reflect.Type) bool {
	seen := map[reflect.Type]bool{}
	var holds func(u reflect.Type) bool
	holds = func(u reflect.Type) bool {
		var parts []reflect.Type
		switch u.Kind() {
		case reflect.Slice, reflect.Array:
			parts = append(parts, u.Elem())
		case reflect.Map:
			parts = append(parts, u.Key(), u.Elem())
		case reflect.Struct:
			for i := range u.NumField() {
				parts = append(parts, u.Field(i).Type)
			}
		}
		for _, p := range parts {
			if p == t {
				return true
			}
			if !seen[p] {
				seen[p] = true
				if holds(p) {
					return true
				}
			}
		}
		return false
	}
	return holds(t)
}

// renameFunc is to as a function: ids outside it (None) stay.
func renameFunc(to []model.NodeID) func(model.NodeID) model.NodeID {
	return func(i model.NodeID) model.NodeID {
		if i < 0 || int(i) >= len(to) {
			return i
		}
		return to[i]
	}
}

func buildRenamer(t reflect.Type) (renamer, error) {
	if t.Implements(renamerType) {
		return func(v reflect.Value, to []model.NodeID) reflect.Value {
			out := v.Interface().(model.Renamer).RenameNodes(renameFunc(to))
			if reflect.TypeOf(out) != t {
				panic(misuse(fmt.Sprintf("%v.RenameNodes returned a %T, not a %v", t, out, t)))
			}
			return reflect.ValueOf(out)
		}, nil
	}
	if t == nodeIDType {
		return func(v reflect.Value, to []model.NodeID) reflect.Value {
			return reflect.ValueOf(renameFunc(to)(model.NodeID(v.Int())))
		}, nil
	}
	switch t.Kind() {
	case reflect.Slice:
		elem, err := renamerLocked(t.Elem())
		if elem == nil {
			return nil, err
		}
		return func(v reflect.Value, to []model.NodeID) reflect.Value {
			if v.IsNil() {
				return v
			}
			c := reflect.MakeSlice(t, v.Len(), v.Len())
			for i := range v.Len() {
				c.Index(i).Set(elem(v.Index(i), to))
			}
			return c
		}, nil
	case reflect.Array:
		elem, err := renamerLocked(t.Elem())
		if elem == nil {
			return nil, err
		}
		return func(v reflect.Value, to []model.NodeID) reflect.Value {
			c := reflect.New(t).Elem()
			for i := range v.Len() {
				c.Index(i).Set(elem(v.Index(i), to))
			}
			return c
		}, nil
	case reflect.Map:
		key, err := renamerLocked(t.Key())
		if err != nil {
			return nil, err
		}
		elem, err := renamerLocked(t.Elem())
		if err != nil || key == nil && elem == nil {
			return nil, err
		}
		return func(v reflect.Value, to []model.NodeID) reflect.Value {
			if v.IsNil() {
				return v
			}
			c := reflect.MakeMapWithSize(t, v.Len())
			for it := v.MapRange(); it.Next(); {
				k, e := it.Key(), it.Value()
				if key != nil {
					k = key(k, to)
				}
				if elem != nil {
					e = elem(e, to)
				}
				c.SetMapIndex(k, e)
			}
			return c
		}, nil
	case reflect.Struct:
		return structRenamer(t)
	}
	return nil, nil
}

// structRenamer renames a struct's fields; a field tagged `vigil:"bynode"`
// also has its entries moved, entry i to entry to[i].
func structRenamer(t reflect.Type) (renamer, error) {
	type field struct {
		i      int
		r      renamer
		bynode bool
	}
	var fields []field
	for i := range t.NumField() {
		f := t.Field(i)
		bynode := f.Tag.Get("vigil") == "bynode"
		if bynode && f.Type.Kind() != reflect.Slice && f.Type.Kind() != reflect.Array {
			return nil, fmt.Errorf("%v.%s is tagged bynode but is a %v, not a slice or an array", t, f.Name, f.Type.Kind())
		}
		r, err := renamerLocked(f.Type)
		if err != nil {
			return nil, err
		}
		if r == nil && !bynode {
			continue
		}
		if !f.IsExported() {
			return nil, fmt.Errorf("%v.%s holds node ids but is unexported: export it, or give %v a RenameNodes method", t, f.Name, t)
		}
		if bynode {
			// the entries keep their own renaming, if any
			elem, err := renamerLocked(f.Type.Elem())
			if err != nil {
				return nil, err
			}
			r = byNode(f.Type, elem, t.String()+"."+f.Name)
		}
		fields = append(fields, field{i, r, bynode})
	}
	if len(fields) == 0 {
		return nil, nil
	}
	return func(v reflect.Value, to []model.NodeID) reflect.Value {
		c := reflect.New(t).Elem()
		c.Set(v)
		for _, f := range fields {
			c.Field(f.i).Set(f.r(v.Field(f.i), to))
		}
		return c
	}, nil
}

// byNode renames a slice or array indexed by node: entry i, renamed by
// elem (nil: as it is), becomes entry to[i].
func byNode(t reflect.Type, elem renamer, name string) renamer {
	return func(v reflect.Value, to []model.NodeID) reflect.Value {
		if t.Kind() == reflect.Slice && v.IsNil() {
			return v
		}
		if v.Len() != len(to) {
			panic(misuse(fmt.Sprintf("%s is tagged bynode but holds %d entries, not one per node (%d)", name, v.Len(), len(to))))
		}
		var c reflect.Value
		if t.Kind() == reflect.Slice {
			c = reflect.MakeSlice(t, v.Len(), v.Len())
		} else {
			c = reflect.New(t).Elem()
		}
		for i := range v.Len() {
			e := v.Index(i)
			if elem != nil {
				e = elem(e, to)
			}
			c.Index(int(to[i])).Set(e)
		}
		return c
	}
}

// renameValue renames v, of any type, or reports why it cannot.
func renameValue[T any](v T, to []model.NodeID) (T, error) {
	rv := reflect.ValueOf(&v).Elem()
	if rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return v, nil
		}
		rv = rv.Elem()
	}
	r, err := renamerFor(rv.Type())
	if err != nil || r == nil {
		return v, err
	}
	out := reflect.ValueOf(&v).Elem()
	out.Set(r(rv, to))
	return v, nil
}
