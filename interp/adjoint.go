package interp

import (
	"errors"

	"github.com/gscript-lang/gscript/lang/ad"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/check"
)

// checkChunk checks f with c, then the IR of each custom adjoint the
// chunk declares (checkAdjoints), so that a bad one is a compile error
// of the chunk, before anything runs.
func checkChunk(c *check.Checker, f *ast.File) (*check.Info, error) {
	info, err := c.Check(f)
	if err != nil {
		return nil, err
	}
	if err := checkAdjoints(info); err != nil {
		return nil, err
	}
	return info, nil
}

// checkAdjoints verifies each `kernel k(...) adjoint k_adj` on the
// lowered IR with ad.CheckCustom, which the tape relies on when it
// launches k_adj in k's place. lang/check has compared the source
// signatures already (with vec3 and mat33 arrays as written); this is
// the same rule on the flattened params, so an error here means the two
// disagree, and it is reported at the clause, not lost.
func checkAdjoints(info *check.Info) error {
	var errs ast.ErrorList
	for d, adj := range info.Adjoints {
		err := ad.CheckCustom(info.Kernels[d], info.Kernels[adj])
		var ae *ad.Error
		switch {
		case errors.As(err, &ae):
			errs.Add(d.Adjoint.Pos, "%s", ae.Msg)
		case err != nil:
			errs.Add(d.Adjoint.Pos, "%v", err)
		}
	}
	errs.Sort()
	return errs.Err()
}

// kernelValue is the value kernel d of a checked chunk is bound to: its
// IR, its source signature and its declared custom adjoint.
func kernelValue(info *check.Info, d *ast.KernelDecl) *Kernel {
	k := &Kernel{Name: d.Name.Name, IR: info.Kernels[d], Params: info.Signatures[d], Pos: d.Pos}
	if adj := info.Adjoints[d]; adj != nil {
		k.Adjoint = &Kernel{Name: adj.Name.Name, IR: info.Kernels[adj], Params: info.Signatures[adj], Pos: adj.Pos}
	}
	return k
}
