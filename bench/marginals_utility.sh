#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 10's benchmark, end to end through the CLI: the marginals mode (MST and AIM) on
# private-pgm's discretised Adult (../shared/data/pgm-adult, domains declared public by
# bench/schemas/pgm-adult.json), ε = 1, δ = 1e-9, 48,842 rows out; the metric is
# ../shared/tools/marginal_tvd.py (mean TVD of all 2-way and 3-way marginals with <= 10,000
# cells). Wall time and peak RSS of `deniable-cli synthesize` from /usr/bin/time.
#
# Missing values: with every category list declared public and no DP set union run, each
# domain keeps a "missing" code (the engine cannot know the data has none without spending ε);
# MST and AIM drop it when its noisy count is negligible, so no output row should hold an empty
# cell. marginal_tvd.py cannot read one: any such row would be dropped before the metric, and
# their number is printed.
#
# Seeds make the runs reproducible for this measurement only (NOT private releases).
#   bench/marginals_utility.sh [BUILD_DIR]      (SEEDS=5 MECHANISMS="mst aim" by default)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
CLI="$BUILD/app/deniable-cli"
DATA="../shared/data/pgm-adult"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
SEEDS="${SEEDS:-5}"
for mechanism in ${MECHANISMS:-mst aim}; do
  for seed in $(seq "$SEEDS"); do
    /usr/bin/time -f "%e %M" -o "$OUT/time" "$CLI" synthesize "$DATA/adult.csv" --mode marginals \
      --mechanism "$mechanism" --epsilon 1 --delta 1e-9 --schema bench/schemas/pgm-adult.json \
      -n 48842 -o "$OUT/s.csv" -q --seed "$seed" 2>/dev/null
    dropped=$(python3 - "$OUT/s.csv" "$OUT/c.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
keep = [r for r in rows[1:] if all(x != "" for x in r)]
w = csv.writer(open(sys.argv[2], "w", newline="")); w.writerow(rows[0]); w.writerows(keep)
print(len(rows) - 1 - len(keep))
PY
)
    t2=$(python3 ../shared/tools/marginal_tvd.py "$DATA/adult.csv" "$OUT/c.csv" --domain "$DATA/adult-domain.json" --degree 2 --json)
    t3=$(python3 ../shared/tools/marginal_tvd.py "$DATA/adult.csv" "$OUT/c.csv" --domain "$DATA/adult-domain.json" --degree 3 --json)
    read -r seconds kb < "$OUT/time"
    python3 -c "
import json, sys
t2 = json.loads('''$t2'''); t3 = json.loads('''$t3''')
print('$mechanism seed $seed: 2-way %.4f  3-way %.4f  %5.2f s  %4.0f MB  rows with a missing cell: $dropped'
      % (t2['mean_tvd'], t3['mean_tvd'], $seconds, $kb / 1024))"
  done
done | tee "$OUT/log"
python3 - "$OUT/log" <<'PY'
import re, sys, collections
acc = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) seed \d+: 2-way ([\d.]+)  3-way ([\d.]+)\s+([\d.]+) s\s+(\d+) MB", line)
    if m: acc[m[1]].append(tuple(float(x) for x in m.groups()[1:]))
for mech, runs in acc.items():
    n = len(runs); mean = [sum(r[i] for r in runs) / n for i in range(4)]
    print(f"{mech}: mean of {n}: 2-way {mean[0]:.4f}, 3-way {mean[1]:.4f}, {mean[2]:.2f} s, "
          f"peak {max(r[3] for r in runs):.0f} MB")
PY
