// stdlib script tests (stdlib/script_test.go): permutation and choice on
// Warp's generator: the same draws on every device for one seed
// (internal/conformance runs a copy of this file on the cpu and every
// CUDA device against the same output).
let p = permutation(10)
print(p, p.dtype, sort(p), permutation(10, seed=1), permutation(0))  //> [3, 5, 1, 9, 6, 4, 0, 2, 8, 7] i64 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] [6, 5, 7, 2, 1, 0, 3, 4, 8, 9] []
let q = permutation(100000, seed=7)
print(all(sort(q) == arange(100000)), q[:5], all(permutation(100000, seed=7) == q))  //> true [89671, 10228, 84575, 6653, 27681] true
---
print(choice(10, 5), choice(10, 5, replace=false), choice(3, [2, 2], seed=4), choice(5, 5, replace=false, seed=2))  //> [5, 7, 1, 7, 8] [3, 5, 1, 9, 6] [[2, 0], [2, 2]] [3, 2, 1, 4, 0]
let c = choice(1000, 1000, replace=false, seed=3)
let d = choice(6, 60000, seed=5)
print(len(unique(c)), min(c), max(c), choice(0, 0), unique(d), all(bincount(d) > 9000))  //> 1000 0 999 [] [0, 1, 2, 3, 4, 5] true
---
print(choice(3, 4, replace=false))   ### "choice: cannot take a larger sample \(4\) than the population \(3\) when replace=false"
---
print(permutation(zeros(3)))   ### "permutation of an array is not supported yet"
---
print(permutation(-1))   ### "permutation: n must be non-negative, not -1"
---
print(choice(0, 2))   ### "choice: a cannot be empty unless no samples are taken"
