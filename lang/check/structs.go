package check

import (
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
)

// structEval lays out the structs of one chunk. A struct may name structs
// declared later (as in Go), so each is laid out on first use; busy holds
// the chain being laid out, to report a recursive type instead of
// recursing forever.
type structEval struct {
	r    *resolver
	busy []*ast.StructDecl
}

// evalStructs lays out every struct the chunk declared. A struct whose
// declaration has an error is stored as nil: its uses are then poisoned,
// not reported again.
func (r *resolver) evalStructs() {
	e := &structEval{r: r}
	for _, d := range r.structOrder {
		e.decl(d)
	}
}

// chunkStructs maps each struct declaration of the chunk to its layout.
func (r *resolver) chunkStructs() map[*ast.StructDecl]*dtype.Struct {
	out := make(map[*ast.StructDecl]*dtype.Struct, len(r.structDecls))
	for i, d := range r.structDecls {
		out[d] = r.structs[i]
	}
	return out
}

// structNamed is the struct a type name refers to: a top-level struct of
// this chunk or of an earlier one, not hidden by a later top-level
// declaration. ok is true for a struct whose declaration had an error,
// with s nil, so that its uses are not reported as unknown types.
func (r *resolver) structNamed(name string) (s *dtype.Struct, ok bool) {
	b, found := r.top.names[name]
	if !found || b.scope != ast.ScopeGlobal {
		return nil, false
	}
	if s, ok := r.structs[b.index]; ok {
		return s, true
	}
	s, ok = r.c.structs[b.index]
	return s, ok
}

// isStruct reports whether global slot i holds a struct type.
func (r *resolver) isStruct(i int) bool {
	_, ok := r.structDecls[i]
	_, earlier := r.c.structs[i]
	return ok || earlier
}

// structName resolves id, an array declaration's element type, when it
// names a struct type; it reports whether it does (without an error when
// not).
func (r *resolver) structName(id *ast.Ident) bool {
	for s := r.scope; s != nil; s = s.parent {
		if b, ok := s.names[id.Name]; ok {
			return b.scope == ast.ScopeGlobal && r.isStruct(b.index) && r.use(id)
		}
	}
	return false
}

// decl lays out d once, storing the result by d's global slot.
func (e *structEval) decl(d *ast.StructDecl) *dtype.Struct {
	if s, ok := e.r.structs[d.Name.Index]; ok {
		return s
	}
	for i, b := range e.busy {
		if b == d {
			names := make([]string, 0, len(e.busy)-i+1)
			for _, c := range e.busy[i:] {
				names = append(names, c.Name.Name)
			}
			names = append(names, d.Name.Name)
			e.r.errs.Add(d.Name.Pos, "recursive struct type: %s", strings.Join(names, " -> "))
			// Every struct of the cycle fails with this one report.
			for _, c := range e.busy[i:] {
				e.r.structs[c.Name.Index] = nil
			}
			return nil
		}
	}
	e.busy = append(e.busy, d)
	s := e.layout(d)
	e.busy = e.busy[:len(e.busy)-1]
	if _, set := e.r.structs[d.Name.Index]; !set { // a cycle already stored its failure
		e.r.structs[d.Name.Index] = s
	}
	return e.r.structs[d.Name.Index]
}

// layout resolves d's field types and lays the fields out; nil after an
// error (reported here, or at the field type's own declaration).
func (e *structEval) layout(d *ast.StructDecl) *dtype.Struct {
	errs := e.r.errs
	if _, ok := dtype.ByName(d.Name.Name); ok {
		errs.Add(d.Name.Pos, "struct %s: %s is a predeclared type", d.Name.Name, d.Name.Name)
		return nil
	}
	if len(d.Fields) == 0 {
		errs.Add(d.Name.Pos, "struct %s has no fields", d.Name.Name)
		return nil
	}
	fields := make([]dtype.Field, 0, len(d.Fields))
	seen := map[string]ast.Pos{}
	ok := true
	for _, f := range d.Fields {
		if p, dup := seen[f.Name.Name]; dup {
			errs.Add(f.Name.Pos, "duplicate field %s in struct %s (first at %s)", f.Name.Name, d.Name.Name, p)
			ok = false
			continue
		}
		seen[f.Name.Name] = f.Name.Pos
		t, good := e.fieldType(d, f)
		ok = ok && good
		fields = append(fields, dtype.Field{Name: f.Name.Name, Type: t})
	}
	if !ok {
		return nil
	}
	s, err := dtype.NewStruct(d.Name.Name, fields)
	if err != nil {
		errs.Add(d.Name.Pos, "%v", err)
		return nil
	}
	return s
}

// fieldType resolves the type of field f of d; false after an error.
func (e *structEval) fieldType(d *ast.StructDecl, f *ast.StructField) (dtype.Type, bool) {
	t := f.Type
	if t.Name == "array" {
		e.r.errs.Add(t.Pos, "field %s of struct %s cannot be an array (an array of structs is array[%s])", f.Name.Name, d.Name.Name, d.Name.Name)
		return dtype.Type{}, false
	}
	if ct, ok := dtype.ByName(t.Name); ok {
		return ct, true
	}
	if b, ok := e.r.top.names[t.Name]; ok && b.scope == ast.ScopeGlobal {
		if sd := e.r.structDecls[b.index]; sd != nil {
			if s := e.decl(sd); s != nil {
				return s.Type(), true
			}
			return dtype.Type{}, false
		}
		if s, ok := e.r.c.structs[b.index]; ok {
			return s.Type(), true
		}
	}
	e.r.errs.Add(t.Pos, "unknown type %s for field %s of struct %s (want one of %s, a vector type: vec3, mat33, quat ..., or a struct)",
		t.Name, f.Name.Name, d.Name.Name, scalarNameList)
	return dtype.Type{}, false
}
