package check

import (
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
)

// adjoints checks every `kernel k(...) adjoint k_adj` clause of the chunk
// and returns each kernel's declared adjoint (Info.Adjoints). It runs
// after the kernels are checked, so that each signature is known; a
// kernel whose parameters had errors is not compared (its errors are
// reported already).
func (kc *kernelChecker) adjoints(kernels []*ast.KernelDecl) map[*ast.KernelDecl]*ast.KernelDecl {
	byName := make(map[string]*ast.KernelDecl, len(kernels))
	for _, d := range kernels {
		byName[d.Name.Name] = d
	}
	out := map[*ast.KernelDecl]*ast.KernelDecl{}
	for _, d := range kernels {
		if d.Adjoint == nil {
			continue
		}
		if adj := kc.adjoint(d, byName[d.Adjoint.Name]); adj != nil {
			out[d] = adj
		}
	}
	return out
}

// adjoint checks d's clause naming adj (nil when no kernel of the chunk
// has that name) and returns adj when it fits.
func (kc *kernelChecker) adjoint(d, adj *ast.KernelDecl) *ast.KernelDecl {
	name, an := d.Name.Name, d.Adjoint.Name
	switch {
	case d.Block != nil:
		kc.errs.Add(d.AdjointPos, "block kernel %s cannot declare an adjoint (block kernels are not differentiable yet)", name)
	case adj == nil:
		kc.errs.Add(d.Adjoint.Pos, "adjoint %s of kernel %s is not a kernel declared in this file", an, name)
	case adj == d:
		kc.errs.Add(d.Adjoint.Pos, "kernel %s cannot be its own adjoint", name)
	case adj.Block != nil:
		kc.errs.Add(d.Adjoint.Pos, "adjoint %s of kernel %s is a block kernel; an adjoint is launched as its kernel is, over threads", an, name)
	default:
		want, got := adjointParams(kc.sigs[d]), kc.sigs[adj]
		if !allTyped(want) || !allTyped(got) {
			return nil
		}
		if !sameSignature(want, got) {
			kc.errs.Add(d.Adjoint.Pos, "adjoint %s of kernel %s must take (%s); it takes (%s)", an, name, signatureString(want), signatureString(got))
			return nil
		}
		return adj
	}
	return nil
}

// adjointParams is the source signature a custom adjoint of a kernel with
// params ps has: ps, then one gradient array per array of f32 or f64
// lanes (a vec3 array too, which is an f32 array in IR: lang/ad's
// GradParams; a struct array's Elem is its u8 storage, so it gets none),
// of the same type, named x_grad.
func adjointParams(ps []dtype.Param) []dtype.Param {
	out := append([]dtype.Param(nil), ps...)
	for _, p := range ps {
		if p.NDim > 0 && p.Type.Elem.IsFloat() {
			out = append(out, dtype.Param{Name: p.Name + "_grad", Type: p.Type, NDim: p.NDim})
		}
	}
	return out
}

func allTyped(ps []dtype.Param) bool {
	for _, p := range ps {
		if !p.Type.Valid() {
			return false
		}
	}
	return true
}

// sameSignature compares types and ranks in order; names are the adjoint's own.
func sameSignature(a, b []dtype.Param) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || a[i].NDim != b[i].NDim {
			return false
		}
	}
	return true
}

// signatureString writes params as a signature does: x: array[vec3], a: f32.
func signatureString(ps []dtype.Param) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		t := p.Type.String()
		switch {
		case p.NDim == 1:
			t = fmt.Sprintf("array[%s]", t)
		case p.NDim > 1:
			t = fmt.Sprintf("array[%s, %d]", t, p.NDim)
		}
		parts[i] = p.Name + ": " + t
	}
	return strings.Join(parts, ", ")
}
