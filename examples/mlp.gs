// mlp.gs: a two-layer MLP trained by gradient descent on a synthetic
// classification problem: 512 points in 8 dimensions, labelled by which of
// 4 random directions they lie furthest along. The network is tanh(x @ w1
// + b1) @ w2 + b2 with a softmax cross-entropy loss, every step recorded
// on a tape and its gradients applied to the weights in place. Library
// kernels are strict, so the cpu and cuda:0 train the same network to
// rounding (matmul sums in another order on each).

const N = 512
const D = 8
const H = 32
const K = 4
const STEPS = 200

let x = randn([N, D], seed=1)
let labels = argmax(x @ randn([D, K], seed=2), axis=1)
let onehot = where(labels.reshape([N, 1]) == arange(K).reshape([1, K]), 1.0, 0.0).astype(f32)

let w1 = requires_grad(randn([D, H], seed=3) * 0.5)
let b1 = zeros([1, H], requires_grad=true)
let w2 = requires_grad(randn([H, K], seed=4) * 0.5)
let b2 = zeros([1, K], requires_grad=true)
let params = [w1, b1, w2, b2]

// mean softmax cross-entropy of logits z against the one-hot labels
fn cross_entropy(z) {
    let m = max(z, axis=1).reshape([N, 1])
    let lse = log(sum(exp(z - m), axis=1)).reshape([N, 1]) + m
    return sum((lse - z) * onehot) / N
}

let lr = 0.5
let loss = nil
for step in range(STEPS) {
    tape t {
        let z = tanh(x @ w1 + b1) @ w2 + b2
        loss = cross_entropy(z)
    }
    backward(t, loss)
    for p in params {
        p -= lr * p.grad
    }
    zero_grad(t)
    if step % 40 == 0 || step == STEPS - 1 {
        print("step", step, "loss", format("%.4f", loss[0]))
    }
}
let z = tanh(x @ w1 + b1) @ w2 + b2
let accuracy = float(sum(argmax(z, axis=1) == labels)) / N
print("training accuracy", format("%.3f", accuracy))
assert accuracy > 0.9, "the network should fit its training set"
