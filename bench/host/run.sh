#!/bin/bash
# run.sh: the host-language benchmarks of HOST.md section 4, each .gs beside
# its .py twin, run side by side with the machine's python3 and reported as
# a markdown table (the one docs/benchmarks.md quotes).
#
#   bench/host/run.sh [GSCRIPT]
#
# GSCRIPT is a gscript binary; without one the script builds ./cmd/gscript.
# Each script times its own work (time() / time.perf_counter), so start-up
# is not counted; each side runs 3 times (RUNS=n to change) and the best
# time is kept. The twins print the same "result" line: a row whose results
# differ is "mismatch", a row whose gscript script fails is "error" (its
# first error line is printed below the table), and the runner goes on. The
# exit status is 1 when any row failed. Run it from anywhere; python3 (or
# $PYTHON) must be on PATH.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gs=${1:-}
if [ -z "$gs" ]; then
	gs=$tmp/gscript
	(cd "$root" && go build -o "$gs" ./cmd/gscript) || { echo "run.sh: go build failed" >&2; exit 2; }
fi
py=${PYTHON:-python3}
runs=${RUNS:-3}
# program name, script, goal (HOST.md section 4)
rows=(
	"fib(30) recursive|fib|>= 2.0x"
	"10^7 s += i loop, top level|loop_top|>= 3.0x"
	"10^7 s += i loop, in a fn|loop_fn|>= 3.0x"
	"10^6 l.append(i), then a sum loop|append|>= 1.5x"
	"10^6 dict inserts + lookups, int keys|dict_int|>= 1.0x"
	"10^6 dict inserts + lookups, string keys|dict_str|>= 1.0x"
	"\"\".join of 10^6 strings|join|>= 1.0x"
	"s += \"ab\" 10^5 times|concat|>= 1.0x"
)

# best CMD... runs CMD $runs times; it prints the best "time" and keeps the
# first run's result line in $tmp/result, or fails with the output in
# $tmp/out.
best() {
	local b="" t
	for r in $(seq "$runs"); do
		"$@" >"$tmp/out" 2>&1 || return 1
		t=$(awk '$1 == "time" { print $2 }' "$tmp/out")
		[ -n "$t" ] || return 1
		[ "$r" = 1 ] && grep '^result' "$tmp/out" >"$tmp/result"
		b=$(awk -v a="$b" -v t="$t" 'BEGIN { print (a == "" || t < a) ? t : a }')
	done
	echo "$b"
}

failed=0
notes=()
echo "| program | CPython s | gscript s | ratio (CPython/gscript) | goal |"
echo "|---|---|---|---|---|"
for row in "${rows[@]}"; do
	IFS='|' read -r name script goal <<<"$row"
	if ! pt=$(best "$py" "$root/bench/host/$script.py"); then
		echo "| $name | error | | | $goal |"
		notes+=("$script.py: $(head -c 300 "$tmp/out" | tail -1)")
		failed=1
		continue
	fi
	mv "$tmp/result" "$tmp/pyresult"
	if ! gt=$(best "$gs" run "$root/bench/host/$script.gs"); then
		printf "| %s | %.4f | error | | %s |\n" "$name" "$pt" "$goal"
		notes+=("$script.gs: $(grep -m1 . "$tmp/out")")
		failed=1
		continue
	fi
	if ! cmp -s "$tmp/result" "$tmp/pyresult"; then
		printf "| %s | %.4f | %.4f | mismatch | %s |\n" "$name" "$pt" "$gt" "$goal"
		notes+=("$script: gscript $(cat "$tmp/result"), CPython $(cat "$tmp/pyresult")")
		failed=1
		continue
	fi
	ratio=$(awk -v p="$pt" -v g="$gt" 'BEGIN { if (g > 0) printf "%.3gx", p / g; else print "inf" }')
	printf '| %s | %.4f | %.4f | %s | %s |\n' "$name" "$pt" "$gt" "$ratio" "$goal"
done
[ ${#notes[@]} -eq 0 ] || { echo; printf '%s\n' "${notes[@]}"; }
exit $failed
