// column_stats.gs: statistics of every column of a table, NumPy style:
// whole-array expressions and reductions along an axis, each statement one
// kernel on the table's device, no loops over elements.

kernel init(m: array[f32, 2]) {
    let i, j = tid()
    // column j: a saw tooth of period 7 + j, scaled by j + 1, plus an offset
    m[i, j] = f32((i * 13 + j * 5) % (7 + j)) * f32(j + 1) + 10.0 * f32(j)
}

let rows = 100000
let cols = 4
array m: f32[rows, cols]
launch init[rows, cols](m)

let mu = mean(m, axis=0)                         // [cols]
let d = m - mu                                   // broadcasts [rows, cols] - [cols]
let sd = sqrt(mean(d * d, axis=0))
let lo = min(m, axis=0)
let hi = max(m, axis=0)
let z = d / sd                                   // standardised columns
let outliers = count_nonzero(abs(z) > 1.5, axis=0)

print("column  mean     std     min    max   |z| > 1.5")
for j in range(cols) {
    print(format("%6d %7.3f %7.3f %6.1f %6.1f %8d", j, mu[j], sd[j], lo[j], hi[j], outliers[j]))
}
print(format("standardised: mean %.4f, std %.4f", abs(mean(z)), sqrt(mean(z * z))))
