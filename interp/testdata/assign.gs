// a store drops the source's leading extents of 1 beyond the target's
// rank, as NumPy (test_indexing.py TestBroadcastedAssignments::test_prepending_ones)
array a: f32[3, 2]
a[:, :] = ones([1, 3, 2])
print(a)                                        //> [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]
a[:, :] = ones([1, 1, 3, 2]) * 2
print(a)                                        //> [[2.0, 2.0], [2.0, 2.0], [2.0, 2.0]]
a[1:, :] = full([1, 1, 2], 5)
print(a)                                        //> [[2.0, 2.0], [5.0, 5.0], [5.0, 5.0]]
a += ones([1, 3, 2])
print(a)                                        //> [[3.0, 3.0], [6.0, 6.0], [6.0, 6.0]]
a[::2, :] -= ones([1, 2, 2])
print(a)                                        //> [[2.0, 2.0], [6.0, 6.0], [5.0, 5.0]]
---
// only leading ones: any other extent beyond the target's rank is refused
array a: f32[3, 2]
a[:, :] = ones([2, 3, 2])                       ### "cannot assign an array of shape \[2, 3, 2\] to a view of shape \[3, 2\]"
---
array a: f32[3, 2]
a[:, :] = ones([2, 3, 2]) * 2                   ### "cannot store an expression of shape \[2, 3, 2\] into an array of shape \[3, 2\]"
---
array a: f32[3, 2]
a += ones([1, 2, 2])                            ### "could not be broadcast together: \[3, 2\] and \[1, 2, 2\]"
---
array a: f32[3, 2]
a[:, 0] = ones([1, 2])                          ### "cannot assign an array of shape \[1, 2\] to a view of shape \[3\]"
