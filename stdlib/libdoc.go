package stdlib

// libraryDocs are the rows of NumPy's library functions (shape.go and
// the files beside it), kept apart from doc.go's table so that each
// addition is local.
var libraryDocs = []Doc{
	{"concatenate", topicArrays, "concatenate(arrays, axis=0)", "a new array of a list of arrays joined along an existing axis (axis=nil: flattened), in their promoted dtype", false},
	{"stack", topicArrays, "stack(arrays, axis=0)", "a new array of a list of arrays of one shape joined along a new axis", false},
	{"split", topicArrays, "split(a, sections, axis=0)", "a list of views of a: sections equal parts (an int that divides the extent), or the parts between a list's indices", false},
	{"flip", topicArrays, "flip(a, axis=)", "a view of a with the elements along axis (an int or a list; every axis without it) in reverse order", false},
	{"roll", topicArrays, "roll(a, shift, axis=)", "a new array of a's elements shifted by shift along axis, wrapping around (of the flattened array without axis)", false},
	{"tile", topicArrays, "tile(a, reps)", "a new array of a repeated reps times along each axis (an int or a list), as NumPy's", false},
	{"repeat", topicArrays, "repeat(a, repeats, axis=)", "a new array with each element repeated repeats times along axis (of the flattened array without it), or element i repeats[i] times for a list", false},
	{"diff", topicArrays, "diff(a, n=1, axis=-1)", "the n-th difference a[1:] - a[:-1] along axis (for bools !=), a new array", false},
	{"outer", topicArrays, "outer(a, b)", "the matrix array of a[i] * b[j] of the flattened arrays; of two float vectors of one type, the matrix value m[i, j] = a[i] * b[j]", false},

	{"nansum", topicReduce, "nansum(a, axis=, keepdims=false)", "sum with NaN elements counted as zero (an all-NaN sum is 0.0); ints and bools as sum", false},
	{"nanmean", topicReduce, "nanmean(a, axis=, keepdims=false)", "the mean of the elements that are not NaN (NaN when all are)", false},
	{"nanmin", topicReduce, "nanmin(a, axis=, keepdims=false)", "the smallest element that is not NaN (NaN when all are)", false},
	{"nanmax", topicReduce, "nanmax(a, axis=, keepdims=false)", "the largest element that is not NaN (NaN when all are)", false},
	{"nanargmin", topicReduce, "nanargmin(a, axis=, keepdims=false)", "argmin with NaN ranked as +inf; an all-NaN array or row is an error, as NumPy's", false},
	{"nanargmax", topicReduce, "nanargmax(a, axis=, keepdims=false)", "argmax with NaN ranked as -inf; an all-NaN array or row is an error, as NumPy's", false},

	{"sort", topicReduce, "sort(a, axis=-1, kind=)", "a new array of a's elements sorted along axis (axis=nil: flattened), stable, NaN last: a radix sort on a's device", false},
	{"argsort", topicReduce, "argsort(a, axis=-1, kind=)", "the i64 indices that sort a along axis (axis=nil: flattened), stable (equal elements keep their order; -0.0 equals 0.0), NaN last", false},

	{"unique", topicReduce, "unique(a, return_counts=false)", "the sorted distinct elements of the flattened a (NaN once); with return_counts the list [values, counts]", false},
	{"searchsorted", topicReduce, "searchsorted(a, v, side=\"left\")", "where each element of v (an array or a number) goes in the sorted 1-D a: before equal elements (left) or after them (right); i64", false},
	{"bincount", topicReduce, "bincount(x, weights=, minlength=0)", "the i64 count of each value of the 1-D non-negative ints x (max(x)+1 of them, at least minlength), or the f64 sums of weights", false},
	{"histogram", topicReduce, "histogram(a, bins=10, range=)", "the list [counts, edges] of NumPy's histogram: bins equal bins over range ([lo, hi]; a's extremes without it) or given edges, the last bin closed", false},

	{"power", topicArrays, "power(a, b)", "a ** b, elementwise and broadcast (NumPy's power): floats, and ints that stay ints (wrapping; a negative int exponent is an error)", false},
	{"permutation", topicArrays, "permutation(n, seed=0, device=, allocator=)", "a random permutation of 0..n-1 (i64): the argsort of Warp's random 64-bit keys, the same on every device", false},
	{"choice", topicArrays, "choice(n, size, replace=true, seed=0, device=, allocator=)", "size random ints of 0..n-1 (i64): with replacement as randint, without the first of permutation(n)", false},
}
