package mutate

import (
	"go/ast"
	"reflect"
)

var nodeType = reflect.TypeFor[ast.Node]()

// rewrite replaces, children first, every node n under root by f(n), where
// the field that holds n can hold what f returns (an expression for an
// expression, a statement for a statement). go/ast has no rewriter; this
// one walks the node structs by reflection.
func rewrite(root ast.Node, f func(ast.Node) ast.Node) ast.Node {
	v := reflect.ValueOf(root)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return f(root)
	}
	s := v.Elem()
	for i := range s.NumField() {
		field := s.Field(i)
		if !field.CanSet() {
			continue
		}
		switch field.Kind() {
		case reflect.Interface, reflect.Pointer:
			rewriteValue(field, f)
		case reflect.Slice:
			for j := range field.Len() {
				rewriteValue(field.Index(j), f)
			}
		}
	}
	return f(root)
}

// rewriteValue rewrites the node held by v, a field or slice element, and
// stores the result where v's type allows it.
func rewriteValue(v reflect.Value, f func(ast.Node) ast.Node) {
	if v.IsNil() || !v.Type().Implements(nodeType) && !(v.Kind() == reflect.Interface && v.Elem().Type().Implements(nodeType)) {
		return
	}
	n, ok := v.Interface().(ast.Node)
	if !ok {
		return
	}
	if _, isObj := n.(*ast.Ident); isObj {
		return // no mutation replaces an identifier; skip its Obj links
	}
	out := rewrite(n, f)
	if out != nil && reflect.TypeOf(out).AssignableTo(v.Type()) {
		v.Set(reflect.ValueOf(out))
	}
}
