// distributed builtins, alone (stdlib/dist.go): rank 0 of 1, every
// collective leaves its array as it is
print(rank(), world_size(), local_rank(), local_world_size(), is_distributed())  //> 0 1 0 1 false
let x = array([1.5, 2.5])
all_reduce(x)
all_reduce(x, op="avg")
reduce(x, root=0, op="max")
broadcast(x, 0)
barrier()
print(x)  //> [1.5, 2.5]
---
// all_gather adds an axis of world_size(); reduce_scatter splits axis 0
// into world_size() parts; out= takes the result
let a = array([[1, 2], [3, 4]], dtype=i64)
let g = all_gather(a)
print(g.shape, g.dtype, g[0])  //> [1, 2, 2] i64 [[1, 2], [3, 4]]
let out = zeros([2, 2], dtype=i64)
let r = reduce_scatter(a, out=out, op="min")
print(out, r.shape)  //> [[1, 2], [3, 4]] [2, 2]
let v = zeros(2, dtype=vec3)
print(all_gather(v).shape)  //> [1, 2]
---
let x = zeros(4)
all_reduce(x, op="mean")  ### "op \"mean\" is not one of sum, prod, min, max, avg"
---
let x = zeros(4, dtype=i32)
all_reduce(x, op="avg")  ### "all_reduce: op=\"avg\" of i32: the mean of integers is not an integer"
---
let x = zeros(4)
broadcast(x, root=1)  ### "broadcast: root=1 is not a rank of a world of 1 \(ranks 0 to 0\)"
---
let x = zeros(4)
send(x, 0)  ### "send: dst=0 is this rank"
---
let m = zeros([4, 4])
let col = m[:, 1]
all_reduce(col)  ### "all_reduce: col is a view that is not contiguous; collectives move whole buffers"
---
let x = zeros(4)
let g = all_gather(x, out=zeros(4))  ### "all_gather: out= is f32\[4\]; this call gives f32\[1, 4\]"
---
let x = zeros([2, 2, 2, 2])
let g = all_gather(x)  ### "all_gather: the result adds an axis to 4, past arrays' 4"
---
all_reduce([1, 2])  ### "all_reduce: argument 1 must be an array, not list"
---
// the remedy for a view that is not contiguous
let m = zeros([4, 4])
let col = m[:, 1]
let c = col.to(col.device)
all_reduce(c)
c += 1.0
copy(col, c)
print(c.is_view, m[0])  //> false [0.0, 1.0, 0.0, 0.0]
---
// arrays of structs move as bytes; they do not reduce
struct P {
    x: f32,
    n: i32,
}
let ps = zeros(3, dtype=P)
broadcast(ps)
print(all_gather(ps).shape)  //> [1, 3]
all_reduce(ps)  ### "all_reduce of an array of P: reductions need numbers"
---
let x = zeros(4)
reduce(x, 0, 3)  ### "reduce: op must be a string"
