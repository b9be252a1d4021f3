package format

import (
	"math"
	"reflect"

	"github.com/gscript-lang/gscript/lang/ast"
)

var posType = reflect.TypeFor[ast.Pos]()

// treeDiff compares two syntax trees, positions aside. After a difference,
// at is the last position in the first tree passed before it, to say
// where formatting went wrong.
type treeDiff struct {
	at ast.Pos
}

func (d *treeDiff) equal(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Elem().Type() != b.Elem().Type() {
			return false
		}
		return d.equal(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !d.equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		return d.fields(a, b)
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || math.IsNaN(x) && math.IsNaN(y)
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	}
	return false // a kind the syntax tree does not use: never call it equal
}

// fields compares a struct field by field, skipping positions but noting
// each as where a difference after it lies.
func (d *treeDiff) fields(a, b reflect.Value) bool {
	if a.Type() == posType {
		return true
	}
	for i := range a.NumField() {
		fa := a.Field(i)
		if fa.Type() == posType {
			if p := fa.Interface().(ast.Pos); p.Line > 0 {
				d.at = p
			}
			continue
		}
		if !d.equal(fa, b.Field(i)) {
			return false
		}
	}
	return true
}
