#!/bin/bash
# compare.sh: the register VM's benchmarks and the closure engine's
# (interp's BenchmarkFib and BenchmarkLoopFn, the same two programs)
# interleaved in one session, ROUNDS rounds (default 5), then the median
# of each: ns/op and ns per call (fib(20): 21 891 calls) or per iteration
# (loop: 10^5), and the fastest round (the machine is shared: the fastest
# is the least disturbed). The two engines alternate which runs first.
# Run it from anywhere.
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rounds=${ROUNDS:-5}
bt=${BENCHTIME:-300x}
cd "$root"
go test -c -o "$tmp/regvm.test" ./bench/host/regvm
go test -c -o "$tmp/interp.test" ./interp
reg() { "$tmp/regvm.test" -test.run '^$' -test.bench 'RegFib|RegLoop' -test.benchtime "$bt" | grep '^Bench'; }
closures() { "$tmp/interp.test" -test.run '^$' -test.bench '^(BenchmarkFib|BenchmarkLoopFn)$' -test.benchtime "$bt" | grep '^Bench'; }
for i in $(seq "$rounds"); do
	if [ $((i % 2)) = 1 ]; then reg; closures; else closures; reg; fi
done | tee "$tmp/all"
echo
echo "median and fastest of $rounds rounds:"
awk '{ n[$1]++; v[$1, n[$1]] = $3 }
END {
	for (k in n) {
		c = n[k]; for (i = 1; i <= c; i++) a[i] = v[k, i]
		for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		m = (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
		units = (k ~ /Fib/) ? 21891 : 100000
		u = (k ~ /Fib/) ? "call" : "iter"
		printf "%-28s %9.0f ns/op %6.2f ns/%s   fastest %9.0f ns/op %6.2f ns/%s\n", k, m, m / units, u, a[1], a[1] / units, u
	}
}' "$tmp/all" | sort
