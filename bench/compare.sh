#!/bin/bash
# compare.sh: gscript's GPU benchmarks beside ../shared/bench/baseline.cu, in
# alternating rounds on one machine, reported as per-round ratios and their
# median (the H200 machine is shared: single runs of either side vary by
# +-20%, so only interleaved rounds give a fair ratio).
#
#   bench/compare.sh GSCRIPT BASELINE_CU [ROUNDS]
#
# GSCRIPT is a gscript binary, BASELINE_CU the baseline source (built with
# nvcc). Run it from the repository root on the GPU machine.
set -eu
gs=$1 cu=$2 rounds=${3:-9}
tmp=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$tmp/baseline" "$cu"
# first NUMBER after the word $1 on the line matching $2 of stdin
after() { grep "$2" | grep -o "$1 [0-9.]*" | head -1 | awk '{print $2}'; }
before() { grep "$2" | grep -o "[0-9.]* $1" | head -1 | awk '{print $1}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
for r in $(seq "$rounds"); do
	c=$("$tmp/baseline")
	cl=$(echo "$c" | after submit "C empty launch")
	cg=$(echo "$c" | before us/kernel "C graph replay")
	cs=$(echo "$c" | before GB/s "C saxpy")
	gl=$("$gs" run bench/launch.gs | after submit launch)
	gg=$("$gs" run bench/replay.gs | before us/kernel replay)
	gsx=$("$gs" run bench/saxpy_gpu.gs | before GB/s saxpy)
	ratio "$gl" "$cl" >>"$tmp/launch"; echo >>"$tmp/launch"
	ratio "$gg" "$cg" >>"$tmp/replay"; echo >>"$tmp/replay"
	ratio "$gsx" "$cs" >>"$tmp/saxpy"; echo >>"$tmp/saxpy"
	echo "round $r: launch $gl vs C $cl us = $(ratio "$gl" "$cl")x; replay $gg vs $cg us/kernel = $(ratio "$gg" "$cg")x;" \
		"saxpy $gsx vs $cs GB/s = $(ratio "$gsx" "$cs")x"
done
for b in launch replay saxpy; do
	sort -n "$tmp/$b" | awk -v b="$b" '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "median %s ratio (gscript / C) over %d rounds: %.3fx (min %.3f, max %.3f)\n", b, NR, m, v[1], v[NR] }'
done
rm -rf "$tmp"
