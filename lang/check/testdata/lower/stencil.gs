kernel stencil(a: array[f32, 2], b: array[f32, 2]) {
    let i, j = tid()
    if i > 0 && j > 0 && i < a.shape[0] - 1 && j < a.shape[1] - 1 {
        b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    }
}
