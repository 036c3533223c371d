#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Utility on adult.csv: mean TVD over all 2-way marginals (deniable-cli compare's measure) of
# each mode at ε = 1, over SEEDS runs (default 10). The seeds make the runs reproducible for
# this measurement only (a seeded run is NOT a private release). Usage:
#   bench/utility.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
CLI="$BUILD/app/deniable-cli"
ADULT="../shared/data/adult.csv"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
SEEDS="${SEEDS:-10}"
for mode in correlated independent deniable "deniable --structure marginals"; do
  values=""
  for seed in $(seq "$SEEDS"); do
    # shellcheck disable=SC2086
    "$CLI" synthesize "$ADULT" --mode $mode --epsilon 1 -n 48842 -o "$OUT/s.csv" -q --seed "$seed" 2>/dev/null
    values="$values $("$CLI" compare "$ADULT" "$OUT/s.csv" -o "$OUT/m.json" -q && python3 -c "
import json; m = json.load(open('$OUT/m.json')); print('%.4f/%.4f' % (m['mean_pair_tvd'], m['mean_column_tvd']))")"
  done
  echo "$mode (2-way/1-way per seed):$values" | awk '{
    n = 0; s2 = 0; s1 = 0;
    for (i = 1; i <= NF; i++) if (split($i, p, "/") == 2 && p[1] ~ /^0/) { n++; s2 += p[1]; s1 += p[2] }
    printf "%s\n  mean 2-way %.4f, mean 1-way %.4f over %d seeds\n", $0, s2 / n, s1 / n, n }'
done
