// stdlib script tests (stdlib/script_test.go): the NaN-ignoring
// reductions nansum nanmean nanmax nanmin nanargmax nanargmin, kernels on
// the array's device. Expected outputs are NumPy 1.24's; internal/
// conformance runs a copy of this file on the cpu and every CUDA device.
let nan = sqrt(-1.0)
let x = array([1.0, nan, 3.0, -2.0])
print(nansum(x), nanmean(x), nanmax(x), nanmin(x), nanargmax(x), nanargmin(x))  //> 2.0 0.6666666666666666 3.0 -2.0 2 3
print(sum(x), max(x), argmax(x))  //> nan nan 1
---
// along axes; an all-NaN row: nansum 0, nanmean, nanmax and nanmin NaN
let nan = sqrt(-1.0)
let m = array([[nan, 2.0, nan], [nan, nan, nan], [1.0, -1.0, 5.0]], dtype=f32)
print(nansum(m, axis=1), nanmean(m, axis=1), nanmax(m, axis=1), nanmin(m, axis=-2), nanmax(m))  //> [2.0, 0.0, 5.0] [2.0, nan, 1.6666666] [2.0, nan, 5.0] [1.0, -1.0, 5.0] 5.0
print(nanargmax(m, axis=0), nanargmin(m, axis=-1, keepdims=true).shape, nansum(m, axis=0).dtype, nanmean(m, axis=[0, 1]))  ### "nanargmin: All-NaN slice encountered"
---
let nan = sqrt(-1.0)
let m = array([[nan, 2.0, nan], [nan, nan, nan], [1.0, -1.0, 5.0]], dtype=f32)
print(nanargmax(m, axis=0), nansum(m, axis=0).dtype, nanmean(m, axis=[0, 1]), nanmax(m, axis=0, keepdims=true))  //> [2, 0, 2] f32 1.75 [[1.0, 2.0, 5.0]]
---
// a NaN ranks as the worst value in nanargmax and nanargmin, so a NaN
// before an infinity wins the tie (NumPy's)
let nan = sqrt(-1.0)
let inf = 1.0 / 0.0
print(nanargmax(array([nan, -inf])), nanargmin(array([nan, inf, 2.0])), nanargmin(array([nan, inf])), nanmax(array([nan, -inf])))  //> 0 2 0 -inf
print(nanmax(array([nan, nan])), nanmin(array([nan]), axis=0), nanmean(array([nan])), nansum(array([nan, nan])))  //> nan nan nan 0.0
---
// ints and bools have no NaN: the plain reductions
let a = arange(6, dtype=i32).reshape([2, 3])
print(nansum(a), nanmean(a), nanmax(a), nanmin(a, axis=0), nanargmax(a, axis=1), nansum(a, axis=1).dtype)  //> 15 2.5 5 [0, 1, 2] [2, 2] i64
print(nansum(array([true, true, false])), nanmax(array([3, 250], dtype=u8)), nanargmin(array([false, true])))  //> 2 250 0
---
// long rows and columns: many blocks, both axis strategies
let nan = sqrt(-1.0)
let big = arange(20000, dtype=f64).reshape([2, 10000])
big[0, 5] = nan
big[1, 9999] = nan
print(nansum(big, axis=1), nanmax(big, axis=1), nanargmax(big, axis=1), nanargmin(big), nanmean(big.T, axis=0))  //> [49994995.0, 149975001.0] [9999.0, 19998.0] [9999, 9998] 0 [4999.999499949995, 14999.0]
print(nansum(big), nanmax(big), nanmin(big.T, axis=1)[5], nanargmax(big), nanmean(big))  //> 199969996.0 19998.0 10005.0 19998 9999.499749974997
---
// expressions fuse into the reduction
let nan = sqrt(-1.0)
let x = array([1.0, nan, 3.0])
print(nansum(x * 2.0), nanmax(x - 10.0), nanargmin(x * -1.0))  //> 8.0 -7.0 2
---
print(nanargmax(array([sqrt(-1.0), sqrt(-1.0)])))   ### "nanargmax: All-NaN slice encountered"
---
print(nanmax(zeros(0)))   ### "nanmax of an empty array"
---
print(nanargmin(zeros([2, 0]), axis=1))   ### "nanargmin along an axis of length 0: the reduction has no identity"
---
print(nanargmax(zeros([2, 2]), axis=[0, 1]))   ### "nanargmax: axis must be an int, not list"
---
print(nansum([1.0, 2.0]))   ### "nansum: argument 1 must be an array, not list"
