func sq(x: f32) -> f32 {
    return x * x
}
kernel k(x: array[f32], y: array[f32]) fast {
    let i = tid()
    y[i] = rsqrt(sq(x[i]) + 1.0) / x[i]
}
kernel b(x: array[f32]) block(32) fast {
    x[tid()] = sqrt(x[tid()])
}
