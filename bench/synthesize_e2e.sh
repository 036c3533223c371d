#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end timings of deniable-cli (wall clock and peak memory, /usr/bin/time), the figures
# issues #2 and #3 set targets for. Usage:
#   bench/synthesize_e2e.sh [BUILD_DIR]          (default: build)
# Needs ../shared/data/adult.csv; the scale runs need /tmp/deniable-scale.csv (or
# DENIABLE_SCALE_CSV), made by: python3 ../shared/data/make_scale.py /tmp/deniable-scale.csv
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
CLI="$BUILD/app/deniable-cli"
ADULT="../shared/data/adult.csv"
SCALE="${DENIABLE_SCALE_CSV:-/tmp/deniable-scale.csv}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
REPEAT="${REPEAT:-3}"

run() {  # label, then the command
  local label="$1"; shift
  for i in $(seq "$REPEAT"); do
    /usr/bin/time -f "$label: %e s wall, %M KB peak" "$@" -q 2>&1 >/dev/null | tail -1
  done
}

echo "# $(date -u +%F) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
run "adult correlated (degree 2, ε = 1, n = 48,842)" \
    "$CLI" synthesize "$ADULT" --mode correlated --degree 2 --epsilon 1 -n 48842 -o "$OUT/a.csv"
run "adult independent (ε = 1, n = 48,842)" \
    "$CLI" synthesize "$ADULT" --mode independent --epsilon 1 -n 48842 -o "$OUT/a.csv"
run "adult deniable (k = 50, γ = 4, ω 5-11, n = 48,842)" \
    "$CLI" synthesize "$ADULT" --mode deniable --k 50 --gamma 4 --omega 5-11 -n 48842 -o "$OUT/a.csv"
if [ -f "$SCALE" ]; then
  REPEAT=1 run "scale correlated (1.5M rows, degree 2, ε = 1, n = 1,500,000)" \
      "$CLI" synthesize "$SCALE" --mode correlated --degree 2 --epsilon 1 -n 1500000 -o "$OUT/s.csv"
  REPEAT=1 run "scale deniable (1.5M rows, k = 50, γ = 4, ω 5-11, n = 1,000,000)" \
      "$CLI" synthesize "$SCALE" --mode deniable --k 50 --gamma 4 --omega 5-11 -n 1000000 -o "$OUT/s.csv"
else
  echo "scale runs skipped: $SCALE is absent (python3 ../shared/data/make_scale.py $SCALE)"
fi
