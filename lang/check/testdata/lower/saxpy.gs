kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
