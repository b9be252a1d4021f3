// dist_sgd.gs: data-parallel linear regression (docs/distributed.md).
//
// Every rank makes the same data (seeded), keeps its shard of the rows
// and, each step, computes its shard's gradient of the squared error;
// all_reduce sums the gradients (and the losses), so every rank takes the
// same step and the loss curve is the same for any number of ranks,
// within f32 rounding:
//
//	gscript run examples/dist_sgd.gs
//	gscript run -n 4 --tag-output examples/dist_sgd.gs

let n = 4096                                        // samples
let d = 8                                           // features
let x_all = randn([n, d], seed=1)
let w_true = arange(d).astype(f32) / f32(d) - 0.5
let y_all = matmul(x_all, w_true.reshape([d, 1])).reshape(-1) + 0.01 * randn(n, seed=2)

let per = cdiv(n, world_size())
let lo = min(n, rank() * per)
let hi = min(n, lo + per)
let x = x_all[lo:hi]
let y = y_all[lo:hi]

let w = zeros(d)
let lr = 0.1
for step in range(41) {
    let r = matmul(x, w.reshape([d, 1])).reshape(-1) - y          // residuals of this shard
    let grad = matmul(x.T, r.reshape([hi - lo, 1])).reshape(-1)   // sum over the shard of r * x
    all_reduce(grad)
    let loss = full(1, sum(r * r))
    all_reduce(loss)
    w -= lr * 2.0 * grad / f32(n)
    if step % 10 == 0 && rank() == 0 {
        print(format("step %2d: mean squared error %.6f", step, float(loss[0]) / float(n)))
    }
}
let err = float(max(abs(w - w_true)))
if err > 0.01 {
    error(format("rank %d: w is %.4f from the truth", rank(), err))
}
if rank() == 0 {
    print(format("%d ranks: w within %.4f of the truth", world_size(), err))
}
