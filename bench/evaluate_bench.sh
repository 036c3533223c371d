#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end timing of deniable-cli evaluate on Adult (issue #11: ≤ 15 s on 2 cores): a
# correlated-mode release (ε = 1) with a 20% control split, then the full evaluation (copies,
# DCR, the three attacks and the XGBoost utility for 'income'), timed by /usr/bin/time: wall
# clock, user CPU and peak memory. The default (nearest-neighbour search on 2 threads, XGBoost
# on 1), then everything on 1 thread (its user time is the work itself: the wall time one idle
# core would take) and XGBoost on 2 threads too. Usage:
#   bench/evaluate_bench.sh [BUILD_DIR]          (default: build; REPEAT=3 runs each)
# Needs ../shared/data/adult.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
CLI="$BUILD/app/deniable-cli"
ADULT="${DENIABLE_SHARED_DATA:-../shared/data}/adult.csv"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
REPEAT="${REPEAT:-3}"

echo "# $(date -u +%F) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$CLI" synthesize "$ADULT" --mode correlated --epsilon 1 -n 39074 -o "$OUT/synthetic.csv" \
    --control-fraction 0.2 --control-out "$OUT/control.csv" --seed 1 -q
for threads in "2 1" "1 1" "2 2"; do
  set -- $threads
  for i in $(seq "$REPEAT"); do
    /usr/bin/time -f "evaluate adult (--threads $1 --ml-threads $2): %e s wall, %U s user, %M KB peak" \
        "$CLI" evaluate "$ADULT" "$OUT/synthetic.csv" --control "$OUT/control.csv" \
        --target income --threads "$1" --ml-threads "$2" -q 2>&1 >/dev/null | tail -1
  done
done
