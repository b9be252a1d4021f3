// Package linalg is gscript's linear algebra on the small types of
// package dtype (TYPES.md section 1): operators, constructors and
// builtins on vectors, matrices and quaternions, written once over
// lang/ir's abstract scalar machine (ir.Machine) so that the kernel
// checker, which emits IR (its own instance, or ir.Emit for kernels built
// in Go), and the host interpreter, which evaluates at once (ir.Host),
// compute the same scalar ops in the same order and so the same bits.
//
// A value is its lanes (dtype's C order: a matrix row by row, a
// quaternion x y z w) as a []R, with its dtype.Type beside it. Every
// function follows NVIDIA Warp's definitions (warp/native/vec.h, mat.h,
// quat.h) in their order of operations, so results also match Warp's
// where Warp computes in the same precision.
//
// # Decisions
//
// Where TYPES.md is silent:
//
//   - The scalar semantics do not live here: this package only orders
//     scalar ops. What each op computes is lang/ir's (ir.Eval on the
//     host, the same expressions as the cpu backend's lane loops, and
//     ir.Convert), so a linalg result on the host is a kernel's bit for
//     bit. The package has no switch over ir.Op.
//   - ir.Machine's Op takes the operands' type, not the result's: an
//     evaluator on raw bits (ir.Host) cannot tell an f32 comparison from
//     an i32 one otherwise, and conversions name both types
//     (Machine.Convert). ir.Emit maps to ir.Builder, whose Op takes the
//     result type.
//   - Operands must have exactly one type (vec3 + vec3d is an error that
//     names the conversion); a scalar operand must already have the lane
//     type, the caller converts untyped constants. Scalars of any numeric
//     type convert to the lane type in constructors only: vec3(i, j, k).
//   - quat() and every other constructor without arguments is zeros, as
//     Warp's quaternion() and quat_t() are; quat_identity() is the
//     identity. vec3(s) and mat33(s) splat; a quaternion does not.
//     quat(v3, w) builds from a vec3 and w, as Warp's quat(ijk, real).
//   - normalize: a vector whose length is not > 0 (zero or NaN) gives
//     zeros and a quaternion the identity (Warp's kEps is 0). inverse
//     gives zeros when the determinant fails Warp's test (2x2, 4x4:
//     neither > 0 nor < 0; 3x3: == 0, so a NaN determinant divides).
//   - Warp's branches (normalize, inverse, quat_from_matrix) become
//     selects: every branch is computed, which only costs time in kernels.
//   - Integer vectors (vec2i ... vec4i) have + - * / (integer division,
//     which fails on zero), ==, unary -, dot, length_sq, cross, min, max,
//     abs, cw_mul, cw_div, as Warp; length, normalize, outer, diag, lerp
//     need float lanes (there are no integer matrices).
//   - * is elementwise on vectors only (v * v, as NumPy); m * m is the
//     matrix product, accumulated with fused multiply-adds from zero as
//     Warp's muladd; q * q is the Hamilton product. / is elementwise on
//     vectors; m / m and q / q are errors (cw_div divides lanes). s / v
//     divides s by every lane. + and - between a compound and a scalar
//     are errors (Warp has them for matrices only).
//   - determinant and inverse of mat44 (f32) compute their 2x2 minors in
//     f32 and the cofactors in f64 where Warp declares double, as the
//     C code it compiles does.
//   - Only square matrices exist (dtype), so outer takes two vectors of
//     one length and matrix sizes in products must agree exactly.
package linalg
