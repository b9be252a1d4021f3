// mandelbrot.gs: the Mandelbrot set, one thread per pixel, as a PNG.
//
//   gscript run examples/mandelbrot.gs [WIDTH [OUT.png]]
//
// WIDTH (default 600) sets the image's width in pixels, its height is two
// thirds of it; the image goes to OUT.png (default mandelbrot.png). Each
// thread iterates z = z^2 + c for its pixel's c and stores a smoothed
// escape count (0 inside the set), which save_image maps through magma:
// the set is black, the fast-escaping plane dark purple, the filaments
// near the boundary bright.

kernel mandel(img: array[f32, 2], inside: array[i32], x0: f32, y0: f32, step: f32, maxit: i32) {
    let i, j = tid()
    let cx = x0 + f32(j) * step
    let cy = y0 + f32(i) * step
    let x = 0.0
    let y = 0.0
    let n = 0
    while n < maxit && x * x + y * y <= 256.0 {
        let t = x * x - y * y + cx
        y = 2.0 * x * y + cy
        x = t
        n += 1
    }
    if n == maxit {
        img[i, j] = 0.0                  // inside: black
        atomic_add(inside, 0, 1)
    } else {
        // Smooth colouring: the fractional escape count, so bands blend.
        let mu = f32(n) + 1.0 - log2(log2(x * x + y * y) * 0.5)
        img[i, j] = sqrt(mu / f32(maxit))
    }
}

let width = 600
if len(argv) > 1 {
    width = int(argv[1])
}
let out = "mandelbrot.png"
if len(argv) > 2 {
    out = argv[2]
}
let height = width * 2 / 3
let maxit = 256
// The view: real part from -2.2 to 1.0, centred on the imaginary axis.
let step = 3.2 / float(width)
array img: f32[height, width]
array inside: i32[1]
let t0 = time()
launch mandel[height, width](img, inside, -2.2, -step * float(height) / 2.0, step, maxit)
save_image(out, img, cmap="magma", vmin=0.0, vmax=1.0)
print(format("%dx%d pixels, %d iterations at most, %.1f%% inside the set", width, height, maxit,
    100.0 * float(inside[0]) / float(width * height)))
print(format("wrote %s in %.2f s", out, time() - t0))
