// dist_sum.gs: a sum split over ranks (docs/distributed.md).
//
// Each rank sums its shard of 0, 1, ..., n-1 (the last shards shorter when
// world_size() does not divide n), then all_reduce adds the partial sums:
// every rank has the same total, alone or under a launcher:
//
//	gscript run examples/dist_sum.gs
//	gscript run -n 4 --tag-output examples/dist_sum.gs
//
// The shards live on each rank's default device (cuda:local_rank() where
// there is one, so all_reduce goes through NCCL; else cpu, over TCP).

let n = 1 << 22
let per = cdiv(n, world_size())
let lo = min(n, rank() * per)
let hi = min(n, lo + per)
let shard = arange(lo, hi, dtype=f64)
let partial = full(1, sum(shard), dtype=f64)
all_reduce(partial)
let total = float(partial[0])
if total != float(n) * float(n - 1) / 2.0 {
    error(format("rank %d: total %.0f, want %.0f", rank(), total, float(n) * float(n - 1) / 2.0))
}
print(format("rank %d of %d: [%d, %d), total %.0f", rank(), world_size(), lo, hi, total))
