kernel logic(x: array[f32], a: f32, b: bool) {
    let i = tid()
    let ok = a > 0.0 && x[i] > a || !b
    if ok {
        x[i] = select(b, a, -a)
    }
    let c = true && b
    let d = false || false
    x[0] = f32(i) / 2 + select(c && !d, 1.0, 0.0)
}
