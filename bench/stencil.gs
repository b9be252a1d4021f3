// stencil.gs: Jacobi-2d on 4096^2 f32 several ways: reading global memory
// (jacobi, the plain stencil the others are measured against); a shared
// tile of four rows that one thread per column walks down a 16-row strip
// (jacobi_rows, the fastest); a shared 34x130 tile per block of 8x128
// threads, 4 rows each (jacobi_tiled); one thread per column walking a
// 64-row strip with north, centre and south in registers and west and east
// from a shared row (jacobi_stream), or from the neighbouring lanes
// (jacobi_warp, one row a step; jacobi_warp2, two). All give the same
// bits. GB/s count one read and one write of the grid per step. Compare
// with ../shared/bench/workloads.py jacobi2d.

// A thread keeps its column's north, centre and south in registers; the
// block puts four rows at a time into a shared tile, so west and east come
// from there and one pair of barriers serves four rows, with four loads of
// each thread in flight at once.
kernel jacobi_rows(u: array[f32, 2], v: array[f32, 2]) block(1, 256) {
    shared t: f32[4, 258]
    let ty, tx = thread_id()
    let by, bx = block_id()
    let n = u.shape[0]
    let m = u.shape[1]
    let j = bx * 256 + tx
    let i0 = by * 16
    let col = j < m
    let north: f32 = 0.0
    if col && i0 >= 1 && i0 - 1 < n {
        north = u[i0 - 1, j]
    }
    let centre: f32 = 0.0
    if col && i0 < n {
        centre = u[i0, j]
    }
    for r in range(0, 16, 4) {
        let i = i0 + r
        let s0: f32 = 0.0
        let s1: f32 = 0.0
        let s2: f32 = 0.0
        let s3: f32 = 0.0
        if col && i + 1 < n {
            s0 = u[i + 1, j]
        }
        if col && i + 2 < n {
            s1 = u[i + 2, j]
        }
        if col && i + 3 < n {
            s2 = u[i + 3, j]
        }
        if col && i + 4 < n {
            s3 = u[i + 4, j]
        }
        t[0, tx + 1] = centre
        t[1, tx + 1] = s0
        t[2, tx + 1] = s1
        t[3, tx + 1] = s2
        if tx == 0 {
            for k in range(4) {
                let w: f32 = 0.0
                if j >= 1 && j - 1 < m && i + k < n {
                    w = u[i + k, j - 1]
                }
                t[k, 0] = w
            }
        }
        if tx == 255 {
            for k in range(4) {
                let e: f32 = 0.0
                if j + 1 < m && i + k < n {
                    e = u[i + k, j + 1]
                }
                t[k, 257] = e
            }
        }
        sync()
        let w0 = t[0, tx]
        let e0 = t[0, tx + 2]
        let w1 = t[1, tx]
        let e1 = t[1, tx + 2]
        let w2 = t[2, tx]
        let e2 = t[2, tx + 2]
        let w3 = t[3, tx]
        let e3 = t[3, tx + 2]
        sync()
        cell(v, i, j, north, s0, w0, e0, centre)
        cell(v, i + 1, j, centre, s1, w1, e1, s0)
        cell(v, i + 2, j, s0, s2, w2, e2, s1)
        cell(v, i + 3, j, s1, s3, w3, e3, s2)
        north = s2
        centre = s3
    }
}
// cell writes v[i, j] from its neighbours, or its own value on the
// boundary, as the plain stencil does.
func cell(v: array[f32, 2], i: i32, j: i32, north: f32, south: f32, west: f32, east: f32, centre: f32) {
    let n = v.shape[0]
    let m = v.shape[1]
    if i < n && j < m {
        if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
            v[i, j] = centre
        } else {
            v[i, j] = 0.25 * (north + south + west + east)
        }
    }
}
kernel jacobi_tiled(u: array[f32, 2], v: array[f32, 2]) block(8, 128) {
    // A block covers 32 rows x 128 columns, each thread 4 rows: the tile
    // holds them with a one-cell halo, loaded once, coalesced.
    shared tile: f32[34, 130]
    let ty, tx = thread_id()
    let by, bx = block_id()
    let n = u.shape[0]
    let m = u.shape[1]
    let i0 = by * 32
    let j = bx * 128 + tx
    for r in range(4) {
        let i = i0 + ty + 8 * r
        let c: f32 = 0.0
        if i < n && j < m {
            c = u[i, j]
        }
        tile[ty + 8 * r + 1, tx + 1] = c
        if tx == 0 {
            let w: f32 = 0.0
            if i < n && j >= 1 {
                w = u[i, j - 1]
            }
            tile[ty + 8 * r + 1, 0] = w
        }
        if tx == 127 {
            let e: f32 = 0.0
            if i < n && j + 1 < m {
                e = u[i, j + 1]
            }
            tile[ty + 8 * r + 1, 129] = e
        }
    }
    if ty == 0 {
        let t: f32 = 0.0
        if i0 >= 1 && j < m {
            t = u[i0 - 1, j]
        }
        tile[0, tx + 1] = t
    }
    if ty == 7 {
        let b: f32 = 0.0
        if i0 + 32 < n && j < m {
            b = u[i0 + 32, j]
        }
        tile[33, tx + 1] = b
    }
    sync()
    for r in range(4) {
        let i = i0 + ty + 8 * r
        let y = ty + 8 * r + 1
        let x = tx + 1
        if i < n && j < m {
            if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
                v[i, j] = tile[y, x]
            } else {
                v[i, j] = 0.25 * (tile[y - 1, x] + tile[y + 1, x] + tile[y, x - 1] + tile[y, x + 1])
            }
        }
    }
}
// One thread per column of a 64-row strip, walking down it: north,
// centre and south in registers, west and east from a shared row.
kernel jacobi_stream(u: array[f32, 2], v: array[f32, 2]) block(1, 128) {
    shared row: f32[130]
    let ty, tx = thread_id()
    let by, bx = block_id()
    let n = u.shape[0]
    let m = u.shape[1]
    let j = bx * 128 + tx
    let i0 = by * 64
    let north: f32 = 0.0
    if j < m && i0 >= 1 && i0 - 1 < n {
        north = u[i0 - 1, j]
    }
    let centre: f32 = 0.0
    if j < m && i0 < n {
        centre = u[i0, j]
    }
    for r in range(64) {
        let i = i0 + r
        let south: f32 = 0.0
        if j < m && i + 1 < n {
            south = u[i + 1, j]
        }
        row[tx + 1] = centre
        if tx == 0 {
            let w: f32 = 0.0
            if i < n && j >= 1 {
                w = u[i, j - 1]
            }
            row[0] = w
        }
        if tx == 127 {
            let e: f32 = 0.0
            if i < n && j + 1 < m {
                e = u[i, j + 1]
            }
            row[129] = e
        }
        sync()
        if i < n && j < m {
            if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
                v[i, j] = centre
            } else {
                v[i, j] = 0.25 * (north + south + row[tx] + row[tx + 2])
            }
        }
        sync()
        north = centre
        centre = south
    }
}
// As jacobi_stream with west and east from the neighbouring lanes
// (shuffles, no barrier): lanes 0 and 31 read their outer neighbour.
kernel jacobi_warp(u: array[f32, 2], v: array[f32, 2]) block(1, 256) {
    let ty, tx = thread_id()
    let by, bx = block_id()
    let n = u.shape[0]
    let m = u.shape[1]
    let lane = lane_id()
    let j = bx * 256 + tx
    let i0 = by * 64
    let north: f32 = 0.0
    if j < m && i0 >= 1 && i0 - 1 < n {
        north = u[i0 - 1, j]
    }
    let centre: f32 = 0.0
    if j < m && i0 < n {
        centre = u[i0, j]
    }
    for r in range(64) {
        let i = i0 + r
        let south: f32 = 0.0
        if j < m && i + 1 < n {
            south = u[i + 1, j]
        }
        let w = shfl_up(centre, 1)
        let e = shfl_down(centre, 1)
        if lane == 0 && i < n && j >= 1 && j - 1 < m {
            w = u[i, j - 1]
        }
        if lane == 31 && i < n && j + 1 < m {
            e = u[i, j + 1]
        }
        if i < n && j < m {
            if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
                v[i, j] = centre
            } else {
                v[i, j] = 0.25 * (north + south + w + e)
            }
        }
        north = centre
        centre = south
    }
}
// jacobi_warp two rows a step: both rows' south loads are in flight at
// once.
kernel jacobi_warp2(u: array[f32, 2], v: array[f32, 2]) block(1, 256) {
    let ty, tx = thread_id()
    let by, bx = block_id()
    let n = u.shape[0]
    let m = u.shape[1]
    let lane = lane_id()
    let j = bx * 256 + tx
    let i0 = by * 64
    let north: f32 = 0.0
    if j < m && i0 >= 1 && i0 - 1 < n {
        north = u[i0 - 1, j]
    }
    let centre: f32 = 0.0
    if j < m && i0 < n {
        centre = u[i0, j]
    }
    for r in range(0, 64, 2) {
        let i = i0 + r
        let s1: f32 = 0.0
        if j < m && i + 1 < n {
            s1 = u[i + 1, j]
        }
        let s2: f32 = 0.0
        if j < m && i + 2 < n {
            s2 = u[i + 2, j]
        }
        let w0 = shfl_up(centre, 1)
        let e0 = shfl_down(centre, 1)
        let w1 = shfl_up(s1, 1)
        let e1 = shfl_down(s1, 1)
        if lane == 0 && j >= 1 && j - 1 < m {
            if i < n {
                w0 = u[i, j - 1]
            }
            if i + 1 < n {
                w1 = u[i + 1, j - 1]
            }
        }
        if lane == 31 && j + 1 < m {
            if i < n {
                e0 = u[i, j + 1]
            }
            if i + 1 < n {
                e1 = u[i + 1, j + 1]
            }
        }
        if i < n && j < m {
            if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
                v[i, j] = centre
            } else {
                v[i, j] = 0.25 * (north + s1 + w0 + e0)
            }
        }
        if i + 1 < n && j < m {
            if i + 1 == n - 1 || j == 0 || j == m - 1 {
                v[i + 1, j] = s1
            } else {
                v[i + 1, j] = 0.25 * (centre + s2 + w1 + e1)
            }
        }
        north = s1
        centre = s2
    }
}
kernel jacobi(u: array[f32, 2], v: array[f32, 2]) {
    let i, j = tid()
    let n = u.shape[0]
    let m = u.shape[1]
    if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
        v[i, j] = u[i, j]
        return
    }
    v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
}
kernel init(u: array[f32, 2]) {
    let i, j = tid()
    u[i, j] = f32((i * 13 + j * 7) % 101)
}
let n = 4096
if len(argv) > 1 {
    n = int(argv[1])
}
array a: f32[n, n]
array b: f32[n, n]
array c: f32[n, n]
array d: f32[n, n]
launch init[n, n](a)
launch init[n, n](c)
fn step(kind, x, y) {
    if kind == "rows" {
        launch jacobi_rows[grid(cdiv(n, 16), cdiv(n, 256))](x, y)
    } else if kind == "tiled" {
        launch jacobi_tiled[grid(cdiv(n, 32), cdiv(n, 128))](x, y)
    } else if kind == "warp" {
        launch jacobi_warp[grid(cdiv(n, 64), cdiv(n, 256))](x, y)
    } else if kind == "warp2" {
        launch jacobi_warp2[grid(cdiv(n, 64), cdiv(n, 256))](x, y)
    } else if kind == "stream" {
        launch jacobi_stream[grid(cdiv(n, 64), cdiv(n, 128))](x, y)
    } else {
        launch jacobi[n, n](x, y)
    }
}
fn rate(reps, kind) {
    let t0 = time()
    for r in range(reps) {
        step(kind, a, b)
        step(kind, b, a)
    }
    synchronize()
    return round(8.0 * float(n * n) / ((time() - t0) / float(2 * reps)) / 1e9)
}
let kinds = ["global", "rows", "tiled", "stream", "warp", "warp2"]
for k in kinds {
    rate(1, k)
}
for k in kinds {
    print("gscript jacobi2d", k, str(n) + "^2 f32:", rate(50, k), "GB/s")
}
// every kind gives the plain stencil's bits
launch init[n, n](a)
launch init[n, n](c)
for k in ["rows", "tiled", "stream", "warp", "warp2"] {
    launch init[n, n](a)
    for r in range(3) {
        step(k, a, b)
        step(k, b, a)
    }
    launch init[n, n](c)
    for r in range(3) {
        step("global", c, d)
        step("global", d, c)
    }
    assert equal(a, c), "the " + k + " stencil agrees with the plain one"
}
