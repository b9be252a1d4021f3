package stdlib

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
)

// linalgFuncs are the host builtins of lang/linalg (dot, cross, length,
// ...), evaluated by ir.Host so that they give a kernel's bits. A name
// that fns already has (dot, transpose, min, max, abs on numbers and
// arrays) keeps that builtin for arguments without a vector.
func linalgFuncs(fns map[string]fn) map[string]fn {
	out := map[string]fn{}
	for _, f := range linalg.Names() {
		name := f.Name
		vec := func(th *interp.Thread, args *interp.Args) (interp.Value, error) { return callLinalg(name, args) }
		old, ok := fns[name]
		if !ok {
			out[name] = vec
			continue
		}
		out[name] = func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
			if interp.HasVector(args.Positional) {
				return vec(th, args)
			}
			return old(th, args)
		}
	}
	return out
}

// callLinalg applies builtin name; host numbers convert to the lane type
// of the vector arguments (interp.LaneType).
func callLinalg(name string, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 3); err != nil {
		return nil, err
	}
	e := interp.LaneType(args.Positional)
	ts := make([]dtype.Type, len(args.Positional))
	lanes := make([][]uint64, len(args.Positional))
	for i, a := range args.Positional {
		var err error
		if ts[i], lanes[i], err = interp.LinalgOperand(a, e); err != nil {
			return nil, fmt.Errorf("%s: argument %d: %v", name, i+1, err)
		}
	}
	h := &ir.Host{}
	t, out, err := linalg.Call[uint64](h, name, ts, lanes)
	return interp.LinalgResult(h, t, out, err)
}

// linalgDocs are the doc rows of the vector types and of the linalg
// builtins that have no row of their own already (dot, transpose, min,
// max, abs and outer do, in their topics, and mention vectors there).
func linalgDocs() []Doc {
	out := slices.Concat(
		family(topicVectors, "%s(x, y, ...) | %[1]s(s) | %[1]s(v) | %[1]s()",
			"a vector type: its lanes, s in every lane, v's lanes converted (vec3d(v)), or zeros; v.x, v[i] read lanes; as a dtype: zeros(n, dtype=vec3), array x: vec3[n], a.view(vec3)",
			"vec2 vec3 vec4 vec2d vec3d vec4d vec2i vec3i vec4i"),
		family(topicVectors, "%s(r0, r1, ...) | %[1]s(a, b, ...) | %[1]s(s) | %[1]s(m) | %[1]s()",
			"a row-major matrix type: from row vectors or every element row by row, s everywhere, m converted, or zeros; m[i, j], m[i] (a row)",
			"mat22 mat33 mat44 mat22d mat33d mat44d"),
		family(topicVectors, "%s(x, y, z, w) | %[1]s(v, w) | %[1]s(q) | %[1]s()",
			"a quaternion type (x, y, z, w as Warp): from lanes, a vec3 and w, q converted, or zeros (quat_identity() is the identity)",
			"quat quatd"),
	)
	for _, f := range linalg.Names() {
		switch f.Name {
		case "dot", "transpose", "min", "max", "abs", "outer":
			continue
		}
		out = append(out, Doc{f.Name, topicVectors, f.Sig, f.Summary, false})
	}
	return out
}
