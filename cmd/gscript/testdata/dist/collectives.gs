// Every collective on every dtype over the ranks of gscript run -n 4
// (launch_test.go): each rank checks its own results and prints ok.
let r = rank()
let w = world_size()

fn expect(what, got, want) {
    if !array_equal(got, want) {
        error(format("rank %d: %s: got %v, want %v", r, what, got, want))
    }
}

// tri is 1 + 2 + ... + n.
fn tri(n) {
    return n * (n + 1) / 2
}

for t in [u8, i32, i64, u32, u64, f32, f64] {
    let name = str(t)
    let x = full(5, r + 1, dtype=t)
    all_reduce(x)
    expect(name + " sum", x, full(5, tri(w), dtype=t))
    for op, want in [["prod", 24], ["min", 1], ["max", w]] {
        let y = full(3, r + 1, dtype=t)
        all_reduce(y, op=op)
        expect(name + " " + op, y, full(3, want, dtype=t))
    }
    let b = full(4, r + 1, dtype=t)
    broadcast(b, root=2)
    expect(name + " broadcast", b, full(4, 3, dtype=t))
    let m = full(2, r + 1, dtype=t)
    reduce(m, root=1, op="max")
    let reduced = r + 1
    if r == 1 {
        reduced = w
    }
    expect(name + " reduce", m, full(2, reduced, dtype=t))
    let g = all_gather(full(2, r + 1, dtype=t))
    expect(name + " all_gather", g, (arange(w).reshape([w, 1]) + 1 + zeros([w, 2], dtype=i32)).astype(t))
    let s = reduce_scatter((arange(2 * w) + r).astype(t))
    expect(name + " reduce_scatter", s, array([2 * w * r + tri(w - 1), 2 * w * r + w + tri(w - 1)]).astype(t))
    let p = zeros(3, dtype=t)
    if r == 0 {
        send(full(3, 7, dtype=t), 3)
    } else if r == 3 {
        recv(p, 0)
        expect(name + " recv", p, full(3, 7, dtype=t))
    }
}
let avg = full(3, f64(r))
all_reduce(avg, op="avg")
expect("f64 avg", avg, full(3, 1.5, dtype=f64))
let flags = full(4, r % 2 == 0, dtype=bool)
all_reduce(flags, op="max")
let all = full(4, r % 2 == 0, dtype=bool)
all_reduce(all, op="prod")
expect("bool max", flags, full(4, true, dtype=bool))
expect("bool prod", all, full(4, false, dtype=bool))
let v = full(2, vec3(f32(r), 1.0, 2.0))
all_reduce(v)
expect("vec3 sum", v.view(f32), full([2, 3], 0.0).view(f32) + array([6.0, 4.0, 8.0]))
barrier()
print("ok", r, "of", w)
