// autodiff_mlp.gs: one training step of a two-layer MLP on the default
// device, the sizes of ../shared/bench/workloads.py autograd: x 4096 x
// 1024 @ w1 1024 x 1024, tanh, @ w2 1024 x 10, softmax cross-entropy
// against one-hot labels (torch's cross_entropy with the mean). Forward
// alone and forward + backward, the median of 10 after a round that
// builds the kernels, in ms; compare with torch_mlp_fwd_ms and
// torch_mlp_fwd_bwd_ms in the same visit. As torch's loop, the step
// accumulates into .grad without zeroing it.
fn median(ts) {
    let s = sorted(ts)
    return (s[len(s) / 2 - 1] + s[len(s) / 2]) / 2.0
}
let b = 4096
let d = 1024
let h = 1024
let k = 10
let w1 = requires_grad(randn([d, h], seed=1) * 0.03)
let w2 = requires_grad(randn([h, k], seed=2) * 0.03)
let xb = randn([b, d], seed=3)
let labels = randint(0, k, b, seed=4)
let onehot = where(labels.reshape([b, 1]) == arange(k).reshape([1, k]), 1.0, 0.0).astype(f32)
fn forward() {
    let z = tanh(xb @ w1) @ w2
    let m = max(z, axis=1).reshape([b, 1])
    let lse = log(sum(exp(z - m), axis=1)).reshape([b, 1]) + m
    return sum((lse - z) * onehot) / b
}
fn step() {
    let loss = nil
    tape t {
        loss = forward()
    }
    backward(t, loss)
    return loss
}
step()
synchronize()
let tf = []
let tb = []
allocator mempool {
    for r in range(10) {
        let t0 = time()
        forward()
        synchronize()
        let t1 = time()
        step()
        synchronize()
        tf.append(t1 - t0)
        tb.append(time() - t1)
    }
}
print("autodiff_mlp", device_info().device, "4096x1024 @ 1024x1024, tanh, @ 1024x10, cross-entropy: forward", round(median(tf) * 1e5) / 100.0, "ms; forward and backward", round(median(tb) * 1e5) / 100.0, "ms")
