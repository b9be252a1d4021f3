// kmeans.gs: k-means clustering of 2-D points, NumPy style: distances by
// broadcasting, argmin along an axis, centroids from masked sums. Each
// statement is one kernel on the points' device.

kernel make_points(p: array[f32, 2], centres: array[f32, 2]) {
    let i = tid()
    let c = i % 4                                   // four blobs
    let h = u32(i) * 2654435761                     // a cheap hash for the spread
    let dx = f32(h % 1000) / 1000.0 - 0.5
    let dy = f32((h / 1000) % 1000) / 1000.0 - 0.5
    p[i, 0] = centres[c, 0] + dx
    p[i, 1] = centres[c, 1] + dy
}

let n = 4000
let k = 4
let truth = array([[0.0, 0.0], [5.0, 0.0], [0.0, 5.0], [5.0, 5.0]], dtype=f32)
array pts: f32[n, 2]
launch make_points[n](pts, truth)

let c = zeros([k, 2])
c[:, :] = pts[0:k]                                  // start from the first k points
for it in range(10) {
    let d = pts.reshape([n, 1, 2]) - c.reshape([1, k, 2])   // [n, k, 2]
    let labels = argmin(sum(d * d, axis=2), axis=1)          // [n]
    for j in range(k) {
        let w = (labels == j).astype(f32).reshape([n, 1])    // 1 for the members of cluster j
        c[j] = sum(pts * w, axis=0) / max(sum(w), 1.0)
    }
}
let d = pts.reshape([n, 1, 2]) - c.reshape([1, k, 2])
let labels = argmin(sum(d * d, axis=2), axis=1)
for j in range(k) {
    print(format("cluster %d: %d points, centre near (%.0f, %.0f)", j, count_nonzero(labels == j), truth[j, 0], truth[j, 1]))
}
print("every centre within 0.05 of its blob's:", max(abs(c - truth)) < 0.05)
