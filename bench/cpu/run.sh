#!/bin/bash
# run.sh: issue 27's cpu table: gscript's cpu device (cpu.gs) beside
# single-threaded C loops of the same work (cpu.c, the system cc -O2) and
# NumPy (cpu.py, /usr/bin/python3 with Debian's python3-numpy), in
# interleaved rounds on one machine (a shared one: each side's best time
# over ROUNDS rounds of 10 runs is kept). Prints a markdown table of
# milliseconds and gscript's speed relative to C and NumPy (x > 1: faster).
#
#   bench/cpu/run.sh [GSCRIPT]
#
# GSCRIPT is a gscript binary; without one the script builds ./cmd/gscript.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gs=${1:-}
if [ -z "$gs" ]; then
	gs=$tmp/gscript
	(cd "$root" && go build -o "$gs" ./cmd/gscript)
fi
cc -O2 -o "$tmp/cpuc" "$root/bench/cpu/cpu.c"
py=${PYTHON:-/usr/bin/python3}
rounds=${ROUNDS:-3}
for r in $(seq "$rounds"); do
	"$tmp/cpuc" >>"$tmp/c.txt"
	"$gs" run "$root/bench/cpu/cpu.gs" >>"$tmp/gs.txt"
	"$py" "$root/bench/cpu/cpu.py" >>"$tmp/py.txt" 2>/dev/null || true
done
# best FILE NAME: the smallest time of NAME in FILE, or "-".
best() { awk -v n="$2" '$1 == n && (b == "" || $2 < b) { b = $2 } END { print (b == "" ? "-" : b) }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-") print "-"; else printf "%.2fx", b / a }'; }
echo "| workload | gscript cpu ms | C -O2 ms | NumPy ms | vs C | vs NumPy | goal |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r name label goal; do
	g=$(best "$tmp/gs.txt" "$name") c=$(best "$tmp/c.txt" "$name") p=$(best "$tmp/py.txt" "$name")
	echo "| $label | $g | $c | $p | $(ratio "$g" "$c") | $(ratio "$g" "$p") | $goal |"
done <<'ROWS'
axpy|`y += a * x`, 2^24 f32|>= 1.0x C
axpbz|`z = a * x + y`, 2^24 f32 (a new z each time, as NumPy)|>= 1.0x C
axpbz_store|`z[:] = a * x + y`, 2^24 f32 (into an existing z)|(no goal: the row above without its allocation)
where|`where(x > 0, x, 0)`, 2^24 f32 (a new array, as NumPy)|>= 1.0x C
where_store|`z[:] = where(x > 0, x, 0)`, 2^24 f32|(no goal: the row above without its allocation)
sum|`sum(x)`, 2^24 f32|>= 1.0x C and NumPy
max|`max(x)`, 2^24 f32|>= 1.0x C and NumPy
sum_axis1|`sum(x, axis=1)`, 4096 x 4096 f32|>= 1.0x C and NumPy
cumsum|`cumsum(x)`, 2^24 f32 (a new array, as NumPy; C into an existing one)|within 1.5x C (issue 27's cpuscan brief)
saxpy|saxpy user kernel, 2^24 f32|>= 0.5x C
jacobi|jacobi-2d user kernel, 4096^2 f32|>= 0.5x C
matmul|`matmul` 1024^2 f32|>= 0.9x NumPy
ROWS
