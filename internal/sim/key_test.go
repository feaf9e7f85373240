package sim

import (
	"bytes"
	"maps"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"pgregory.net/rapid"
)

func key(v any) []byte { return AppendKey(nil, v) }

type keyInner struct {
	X    int
	Tags []string
}

type keyOuter struct {
	Name  string
	In    keyInner
	List  []keyInner
	Count map[string]int
}

// Maps with the same content encode the same whatever order they were
// filled in: built here in ascending and descending insertion order, large
// enough for Go's iteration order to differ between them.
func TestAppendKeyMapsAreCanonical(t *testing.T) {
	const n = 200
	up, down := map[int]string{}, map[int]string{}
	for i := range n {
		up[i-n/2] = string(rune('a' + i%26))
	}
	for i := n - 1; i >= 0; i-- {
		down[i-n/2] = string(rune('a' + i%26))
	}
	require.Equal(t, key(up), key(down))

	// The same inside a struct, a slice and a map of maps.
	require.Equal(t, key(keyOuter{Count: map[string]int{"a": 1, "b": 2, "c": 3}}),
		key(keyOuter{Count: map[string]int{"c": 3, "b": 2, "a": 1}}))
	nested := func(order []string) map[string]map[string]bool {
		m := map[string]map[string]bool{}
		for _, k := range order {
			m[k] = map[string]bool{}
			for _, k2 := range order {
				m[k][k2] = k < k2
			}
		}
		return m
	}
	require.Equal(t, key([]map[string]map[string]bool{nested([]string{"x", "y", "z"})}),
		key([]map[string]map[string]bool{nested([]string{"z", "x", "y"})}))

	// Deleting and re-adding an entry changes nothing either.
	m := map[string]int{"a": 1, "b": 2}
	delete(m, "a")
	m["a"] = 1
	require.Equal(t, key(map[string]int{"a": 1, "b": 2}), key(m))
}

// AppendKey compares by content: a nil slice or map encodes like an empty
// one, as the engine needs (interning stores the first representative it
// meets, and handlers may not tell nil from empty). reflect.DeepEqual, by
// contrast, tells them apart.
func TestAppendKeyNilIsEmpty(t *testing.T) {
	cases := []struct {
		name      string
		nil, empt any
	}{
		{"slice", []int(nil), []int{}},
		{"map", map[string]int(nil), map[string]int{}},
		{"slice in struct", keyInner{X: 1}, keyInner{X: 1, Tags: []string{}}},
		{"map in struct", keyOuter{Name: "a"}, keyOuter{Name: "a", Count: map[string]int{}, List: []keyInner{}}},
		{"slice in slice", [][]int{nil, {1}}, [][]int{{}, {1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.False(t, reflect.DeepEqual(c.nil, c.empt), "the case must really compare nil with empty")
			require.Equal(t, key(c.nil), key(c.empt))
		})
	}
}

// Distinct values encode differently, in particular where a naive
// concatenation of the parts would collide.
func TestAppendKeyDistinct(t *testing.T) {
	type two struct{ A, B []int }
	type strs struct{ A, B string }
	cases := []struct {
		name string
		a, b any
	}{
		{"strings split differently", []string{"ab", "c"}, []string{"a", "bc"}},
		{"one string or two", []string{"ab"}, []string{"a", "b"}},
		{"empty strings", []string{"", ""}, []string{""}},
		{"empty string or none", []string{""}, []string{}},
		{"struct of strings", strs{"ab", "c"}, strs{"a", "bc"}},
		{"element moved between slices", two{A: []int{1}}, two{B: []int{1}}},
		{"nested slices split differently", [][]int{{1, 2}, {3}}, [][]int{{1}, {2, 3}}},
		{"negative and positive", -1, 1},
		{"negative and zero", -1, 0},
		{"min and max int64", int64(math.MinInt64), int64(math.MaxInt64)},
		{"negative ints in a slice", []int{-1, 2}, []int{1, -2}},
		{"order of elements", []int{1, 2}, []int{2, 1}},
		{"map key and value swapped", map[int]int{1: 2}, map[int]int{2: 1}},
		{"string map key and value swapped", map[string]string{"a": "b"}, map[string]string{"b": "a"}},
		{"map entries split differently", map[string]string{"a": "bc"}, map[string]string{"ab": "c"}},
		{"map with an extra entry", map[int]int{1: 1}, map[int]int{1: 1, 2: 2}},
		{"nested struct field", keyOuter{In: keyInner{X: 1}}, keyOuter{In: keyInner{X: 2}}},
		{"nested struct slice", keyOuter{In: keyInner{Tags: []string{"a"}}}, keyOuter{List: []keyInner{{Tags: []string{"a"}}}}},
		{"deep in a slice of structs", keyOuter{List: []keyInner{{X: 1, Tags: []string{"a", "b"}}}},
			keyOuter{List: []keyInner{{X: 1, Tags: []string{"ab"}}}}},
		{"bools", []bool{true, false}, []bool{false, true}},
		{"arrays", [2]string{"ab", ""}, [2]string{"a", "b"}},
		{"floats", 1.5, 2.5},
		{"big uints", uint64(math.MaxUint64), uint64(math.MaxUint64 - 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NotEqual(t, key(c.a), key(c.b))
		})
	}
}

func TestAppendKeyAppends(t *testing.T) {
	prefix := []byte("prefix")
	b := AppendKey(slices.Clone(prefix), []string{"x"})
	require.True(t, bytes.HasPrefix(b, prefix))
	require.Equal(t, key([]string{"x"}), b[len(prefix):])
}

// keyProbe mixes every kind the encoder handles, with small alphabets so
// that random values often coincide or nearly coincide.
type keyProbe struct {
	Name   string
	Words  []string
	Counts map[int8]int64
	Nested []keyInner
	Flag   bool
	Pair   [2]int16
	F      float64
}

func sameProbe(a, b keyProbe) bool {
	if a.Name != b.Name || !slices.Equal(a.Words, b.Words) || !maps.Equal(a.Counts, b.Counts) ||
		a.Flag != b.Flag || a.Pair != b.Pair || a.F != b.F || len(a.Nested) != len(b.Nested) {
		return false
	}
	for i := range a.Nested {
		if a.Nested[i].X != b.Nested[i].X || !slices.Equal(a.Nested[i].Tags, b.Nested[i].Tags) {
			return false
		}
	}
	return true
}

// copyProbe copies p sharing no storage, filling its map in descending key
// order and turning nil slices into empty ones.
func copyProbe(p keyProbe) keyProbe {
	c := p
	c.Words = append([]string{}, p.Words...)
	c.Counts = nil
	keys := slices.Sorted(maps.Keys(p.Counts))
	slices.Reverse(keys)
	for _, k := range keys {
		if c.Counts == nil {
			c.Counts = map[int8]int64{}
		}
		c.Counts[k] = p.Counts[k]
	}
	c.Nested = nil
	for _, in := range p.Nested {
		c.Nested = append(c.Nested, keyInner{X: in.X, Tags: append([]string{}, in.Tags...)})
	}
	return c
}

func probeGen() *rapid.Generator[keyProbe] {
	str := rapid.SampledFrom([]string{"", "a", "b", "ab", "ba", "aab"})
	small := rapid.IntRange(-2, 2)
	return rapid.Custom(func(t *rapid.T) keyProbe {
		p := keyProbe{
			Name:  str.Draw(t, "name"),
			Words: rapid.SliceOfN(str, 0, 3).Draw(t, "words"),
			Flag:  rapid.Bool().Draw(t, "flag"),
			Pair:  [2]int16{int16(small.Draw(t, "p0")), int16(small.Draw(t, "p1"))},
			F:     float64(small.Draw(t, "f")) / 2,
		}
		for range rapid.IntRange(0, 3).Draw(t, "counts") {
			if p.Counts == nil {
				p.Counts = map[int8]int64{}
			}
			p.Counts[int8(small.Draw(t, "k"))] = int64(small.Draw(t, "v"))
		}
		for range rapid.IntRange(0, 2).Draw(t, "nested") {
			p.Nested = append(p.Nested, keyInner{X: small.Draw(t, "x"), Tags: rapid.SliceOfN(str, 0, 2).Draw(t, "tags")})
		}
		return p
	})
}

// Random pairs of values (independent, copies, and copies with one part
// redrawn): equal encodings exactly when the contents are equal; and a copy
// with its map filled in another order encodes the same.
func TestAppendKeyInjectiveAndCanonical(t *testing.T) {
	var equalPairs, distinctPairs int
	rapid.Check(t, func(t *rapid.T) {
		a := probeGen().Draw(t, "a")
		var b keyProbe
		switch rapid.IntRange(0, 2).Draw(t, "how b is made") {
		case 0:
			b = probeGen().Draw(t, "b")
		case 1:
			b = copyProbe(a)
		case 2:
			// a near miss: one part redrawn
			c := probeGen().Draw(t, "c")
			b = copyProbe(a)
			switch rapid.IntRange(0, 6).Draw(t, "part") {
			case 0:
				b.Name = c.Name
			case 1:
				b.Words = c.Words
			case 2:
				b.Counts = c.Counts
			case 3:
				b.Nested = c.Nested
			case 4:
				b.Flag = c.Flag
			case 5:
				b.Pair = c.Pair
			case 6:
				b.F = c.F
			}
		}
		same := sameProbe(a, b)
		if same {
			equalPairs++
		} else {
			distinctPairs++
		}
		require.Equal(t, same, bytes.Equal(key(a), key(b)), "a=%+v b=%+v", a, b)
		require.Equal(t, key(a), key(copyProbe(a)))
	})
	// Both branches must have been exercised for the check to mean anything.
	require.Positive(t, equalPairs, "no equal pair drawn")
	require.Positive(t, distinctPairs, "no distinct pair drawn")
}

type badPtr struct {
	In struct{ P *int }
}
type badIface struct {
	List []struct{ V any }
}
type badFunc struct {
	M map[string][]func()
}
type badChanKey struct {
	M map[chan int]int
}
type badArray struct {
	A [2]struct{ C chan bool }
}

// CheckKeyable rejects what has no canonical encoding, naming the path to
// the offending field and its kind; AppendKey panics on such values with
// the same message.
func TestCheckKeyable(t *testing.T) {
	cases := []struct {
		name string
		v    any
		path string
		kind string
	}{
		{"pointer in a nested struct", badPtr{}, "sim.badPtr.In.P", "ptr"},
		{"interface in a slice of structs", badIface{}, "sim.badIface.List[].V", "interface"},
		{"func in a map value", badFunc{}, "sim.badFunc.M[value][]", "func"},
		{"chan as a map key", badChanKey{}, "sim.badChanKey.M[key]", "chan"},
		{"chan in an array", badArray{}, "sim.badArray.A[].C", "chan"},
		{"top-level pointer", new(int), "*int", "ptr"},
		{"top-level func", func() {}, "func()", "func"},
		{"top-level chan", make(chan int), "chan int", "chan"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckKeyable(reflect.TypeOf(c.v))
			require.Error(t, err)
			require.Contains(t, err.Error(), c.path+" has kind "+c.kind)
			require.Contains(t, err.Error(), "plain values")
			defer func() {
				r := recover()
				require.NotNil(t, r, "AppendKey accepted %T", c.v)
				require.Contains(t, r.(error).Error(), c.path+" has kind "+c.kind)
			}()
			AppendKey(nil, c.v)
		})
	}
	for _, ok := range []any{0, "", keyOuter{}, keyProbe{}, map[string][]map[int]bool{}, [3][]uint8{}} {
		require.NoError(t, CheckKeyable(reflect.TypeOf(ok)), "%T", ok)
	}
}

// Compile refuses a protocol whose state or message type has no canonical
// encoding, naming the field.
func TestCompileRejectsUnkeyableTypes(t *testing.T) {
	_, err := Compile("bad-state", ptrProtocol{}, model.Config{N: 2})
	require.ErrorContains(t, err, "protocol bad-state: sim.ptrState.Next has kind ptr")
	_, err = Compile("bad-msg", ifaceMsgProtocol{}, model.Config{N: 2})
	require.ErrorContains(t, err, "protocol bad-msg: sim.ifaceMsg.Payload has kind interface")
}

type ptrState struct{ Next *ptrState }
type ptrProtocol struct{}

func (ptrProtocol) Init(*model.Ctx[int]) ptrState                                         { return ptrState{} }
func (ptrProtocol) Receive(_ *model.Ctx[int], s ptrState, _ model.NodeID, _ int) ptrState { return s }
func (ptrProtocol) Timeout(_ *model.Ctx[int], s ptrState, _ model.Timer) ptrState         { return s }
func (ptrProtocol) Recover(_ *model.Ctx[int], s ptrState) ptrState                        { return s }

type ifaceMsg struct{ Payload any }
type ifaceMsgProtocol struct{}

func (ifaceMsgProtocol) Init(*model.Ctx[ifaceMsg]) int { return 0 }
func (ifaceMsgProtocol) Receive(_ *model.Ctx[ifaceMsg], s int, _ model.NodeID, _ ifaceMsg) int {
	return s
}
func (ifaceMsgProtocol) Timeout(_ *model.Ctx[ifaceMsg], s int, _ model.Timer) int { return s }
func (ifaceMsgProtocol) Recover(_ *model.Ctx[ifaceMsg], s int) int                { return s }

type cloneSample struct {
	A    []int
	B    [][]string
	M    map[string][]int
	Arr  [2][]int
	In   keyInner
	List []keyInner
	Nil  []int
	NilM map[int]int
}

// walkClone checks, along every slice and map of orig and its clone c, that
// the clone's slices have cap == len and that no slice or map storage is
// shared; it returns how many slices and maps it compared.
func walkClone(t *testing.T, orig, c reflect.Value, path string) int {
	t.Helper()
	switch orig.Kind() {
	case reflect.Slice:
		require.Equal(t, orig.IsNil(), c.IsNil(), "%s: nil-ness", path)
		require.Equal(t, orig.Len(), c.Len(), path)
		require.Equal(t, c.Len(), c.Cap(), "%s: the clone's capacity", path)
		if orig.Len() > 0 {
			require.NotEqual(t, orig.Pointer(), c.Pointer(), "%s: shared backing array", path)
		}
		n := 1
		for i := range orig.Len() {
			n += walkClone(t, orig.Index(i), c.Index(i), path+"[]")
		}
		return n
	case reflect.Map:
		require.Equal(t, orig.IsNil(), c.IsNil(), "%s: nil-ness", path)
		require.Equal(t, orig.Len(), c.Len(), path)
		if orig.IsNil() {
			return 1
		}
		require.NotEqual(t, orig.Pointer(), c.Pointer(), "%s: shared map", path)
		n := 1
		for it := orig.MapRange(); it.Next(); {
			cv := c.MapIndex(it.Key())
			require.True(t, cv.IsValid(), "%s: key %v missing", path, it.Key())
			n += walkClone(t, it.Value(), cv, path+"[value]")
		}
		return n
	case reflect.Struct:
		n := 0
		for i := range orig.NumField() {
			n += walkClone(t, orig.Field(i), c.Field(i), path+"."+orig.Type().Field(i).Name)
		}
		return n
	case reflect.Array:
		n := 0
		for i := range orig.Len() {
			n += walkClone(t, orig.Index(i), c.Index(i), path+"[]")
		}
		return n
	}
	require.Equal(t, orig.Interface(), c.Interface(), path)
	return 0
}

func TestDeepClone(t *testing.T) {
	spare := make([]int, 2, 10)
	spare[0], spare[1] = 1, 2
	tags := make([]string, 1, 5)
	tags[0] = "t"
	orig := cloneSample{
		A:    spare,
		B:    [][]string{append(make([]string, 0, 4), "x", "y"), {}, nil},
		M:    map[string][]int{"k": append(make([]int, 0, 3), 7), "nil": nil},
		Arr:  [2][]int{append(make([]int, 0, 9), 1), nil},
		In:   keyInner{X: 3, Tags: tags},
		List: []keyInner{{X: 1, Tags: append(make([]string, 0, 8), "a")}},
	}
	before := key(orig)
	c := deepClone(reflect.ValueOf(&orig).Elem()).Interface().(cloneSample)
	require.Equal(t, before, key(c), "the clone has the same content")
	require.Equal(t, 15, walkClone(t, reflect.ValueOf(orig), reflect.ValueOf(c), "cloneSample"))

	// Writing into the clone, or appending to its slices, leaves the
	// original alone (its spare capacity included).
	c.A[0] = 100
	c.B[0][0] = "changed"
	c.M["k"][0] = 100
	c.M["new"] = []int{1}
	c.Arr[0][0] = 100
	c.In.Tags[0] = "changed"
	c.List[0].Tags[0] = "changed"
	c.List[0].X = 100
	_ = append(c.A, 55)
	_ = append(c.In.Tags, "appended")
	require.Equal(t, before, key(orig))
	require.Equal(t, 0, spare[:3][2], "an append to the clone wrote into the original's spare capacity")
	require.Equal(t, "", tags[:2][1], "an append to the clone wrote into the original's spare capacity")
}

type cyclic struct {
	Next *cyclic
	Vals []int
}

// sharesMemory finds storage two values share at any depth, and only
// storage a write could go through.
func TestSharesMemory(t *testing.T) {
	arr := []int{1, 2, 3, 4}
	inner := []string{"x"}
	m := map[string][]int{"k": {1}}
	loop := &cyclic{Vals: []int{1}}
	loop.Next = loop
	fresh := func() cloneSample {
		return cloneSample{A: []int{1}, B: [][]string{{"x"}}, M: map[string][]int{"k": {1}}, List: []keyInner{{Tags: []string{"a"}}}}
	}
	for _, c := range []struct {
		name   string
		a, b   any
		shared bool
	}{
		{"built twice", fresh(), fresh(), false},
		{"nil and empty", cloneSample{}, cloneSample{A: []int{}}, false},
		{"one slice", cloneSample{A: arr}, cloneSample{A: arr}, true},
		{"overlapping slices", cloneSample{A: arr[:2]}, cloneSample{A: arr[3:]}, true},
		{"an element slice", cloneSample{B: [][]string{inner}}, cloneSample{B: [][]string{{"y"}, inner}}, true},
		{"a slice in a struct of a list", cloneSample{List: []keyInner{{Tags: inner}}}, cloneSample{B: [][]string{inner}}, true},
		{"one map", cloneSample{M: m}, cloneSample{M: m}, true},
		{"a map's value", cloneSample{M: map[string][]int{"a": arr}}, cloneSample{A: arr}, true},
		{"one string", keyInner{Tags: []string{"s"}}, keyInner{Tags: []string{"s"}}, false},
		{"a cycle", loop, &cyclic{Vals: []int{1}}, false},
		{"into a cycle", loop, &cyclic{Vals: loop.Vals}, true},
	} {
		require.Equal(t, c.shared, sharesMemory(reflect.ValueOf(c.a), reflect.ValueOf(c.b)), c.name)
		require.Equal(t, c.shared, sharesMemory(reflect.ValueOf(c.b), reflect.ValueOf(c.a)), c.name)
	}
}

type unexportedSlice struct {
	Ok   int
	list []int
}

type unexportedScalar struct {
	Ok int
	n  int
}

// deepClone refuses what it cannot copy safely, and copies unexported
// scalars.
func TestDeepCloneUnexported(t *testing.T) {
	v := unexportedSlice{Ok: 1, list: []int{1}}
	require.PanicsWithValue(t, "sim.unexportedSlice.list: unexported fields holding slices or maps cannot be copied safely; export the field",
		func() { deepClone(reflect.ValueOf(&v).Elem()) })
	s := unexportedScalar{Ok: 1, n: 2}
	require.Equal(t, s, deepClone(reflect.ValueOf(&s).Elem()).Interface())
}

// flatSample has booleans and numbers only, of every width, with padding
// between fields: it encodes straight from memory when addressable.
type flatSample struct {
	B   bool
	I8  int8
	I   int
	U16 uint16
	F32 float32
	A   [2]int32
	In  struct {
		U  uint
		F  float64
		B2 bool
	}
	U64 uint64
	I64 int64
}

// Values read in place (flat structs, arrays, slices of them) encode to
// the bytes reflection gives, the key the Machine stored before.
func TestAppendKeyFlatInPlace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var v flatSample
		v.B = rapid.Bool().Draw(t, "b")
		v.I8 = rapid.Int8().Draw(t, "i8")
		v.I = rapid.Int().Draw(t, "i")
		v.U16 = rapid.Uint16().Draw(t, "u16")
		v.F32 = rapid.Float32().Draw(t, "f32")
		v.A = [2]int32{rapid.Int32().Draw(t, "a0"), rapid.Int32().Draw(t, "a1")}
		v.In.U, v.In.F, v.In.B2 = rapid.Uint().Draw(t, "u"), rapid.Float64().Draw(t, "f"), rapid.Bool().Draw(t, "b2")
		v.U64, v.I64 = rapid.Uint64().Draw(t, "u64"), rapid.Int64().Draw(t, "i64")
		slow := buildValueEncoder(reflect.TypeFor[flatSample]())
		want := slow(nil, reflect.ValueOf(v))
		require.Equal(t, want, appendKeyOf(nil, &v))
		require.Equal(t, want, AppendKey(nil, v)) // not addressable: through reflection
		vs := []flatSample{v, {}, v}
		wantSlice := buildValueEncoder(reflect.TypeFor[[]flatSample]())(nil, reflect.ValueOf(vs))
		require.Equal(t, wantSlice, AppendKey(nil, vs))
		arr := [3]flatSample{v, v, {}}
		require.Equal(t, buildValueEncoder(reflect.TypeFor[[3]flatSample]())(nil, reflect.ValueOf(arr)), appendKeyOf(nil, &arr))
	})
}

// A differ is sound: two values it tells apart have different keys. It
// must tell some apart (numbers, lengths), never a value and its copy.
func TestDifferImpliesDifferentKeys(t *testing.T) {
	d := newDiffer(reflect.TypeFor[keyProbe]())
	var told int
	rapid.Check(t, func(t *rapid.T) {
		a, b := probeGen().Draw(t, "a"), probeGen().Draw(t, "b")
		if differs(&d, &a, &b) {
			told++
			require.NotEqual(t, key(a), key(b), "a=%+v b=%+v", a, b)
		}
		c := copyProbe(a)
		require.False(t, differs(&d, &a, &c), "a value and its copy told apart: %+v", a)
	})
	require.Positive(t, told, "no pair told apart")
}
