// imports.gs: `import` brings in another file's top-level names under its
// base name: lib/vec.gs becomes vec (vec.norm, vec.scale_add, vec.eps).
// The path is relative to this file, so the script runs from anywhere.
//
// Run: gscript run examples/imports.gs

import "lib/vec.gs"

let n = 1000
array x: f32[n] = 1.0
array y: f32[n] = 2.0
launch vec.scale_add[n](x, y, 2.0)          // a kernel of the imported file
print("y[0] =", y[0])                       // y[0] = 4.0
print("norm(y) =", vec.norm(y))             // 4 * sqrt(1000) = 126.49...
assert vec.close(vec.norm(y), 4.0 * sqrt(float(n))), "norm(y) is wrong"
print("within", vec.eps)                    // within 1e-05
