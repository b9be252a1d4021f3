// saxpy.gs: y = a*x + y, the "hello world" of GPU programming.
//
// Run: gscript run examples/saxpy.gs   (on the current device: cuda:0 if
// present, else cpu; gscript --device cpu forces the CPU executor)

kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}

let n = 1 << 20
array x: f32[n] = 1.0            // one million ones
array y: f32[n] = 2.0
launch saxpy[n](x, y, 3.0)       // one thread per element

print("n =", n)                  // n = 1048576
print("y[0] =", y[0])            // y[0] = 5.0
print("y[n-1] =", y[n - 1])      // y[n-1] = 5.0
print("sum(y) =", sum(y))        // sum(y) = 5242880.0
assert sum(y) == 5.0 * float(n), "saxpy gave a wrong sum"

// A second launch reuses y: y = 0.5*x + y = 5.5 everywhere.
launch saxpy[n](x, y, 0.5)
print("mean(y) =", mean(y))      // mean(y) = 5.5
print("y[:4] =", y[0:4])         // y[:4] = [5.5, 5.5, 5.5, 5.5]
