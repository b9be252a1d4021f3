kernel loops(x: array[i32], n: i32, s: i32) {
    let i = tid()
    let acc = 0
    for k in range(n) {
        if k % 2 == 0 {
            continue
        }
        if k > 10 {
            break
        }
        acc += k
    }
    while acc > 100 {
        acc /= 2
    }
    for k in range(10, 0, s) {
        acc -= 1
    }
    while true {
        acc += 1
        if acc >= 1000 {
            break
        }
    }
    x[i] = acc
}
