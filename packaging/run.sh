#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The run command: install dependencies, build, then open the app on the demo dataset — or,
# without a display, run the CLI demo end to end.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
bash packaging/build.sh
BUILD="${DENIABLE_BUILD_DIR:-build}"
DEMO=resources/demo/adult_sample.csv
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$BUILD/app/deniable" ]; then
  exec "$BUILD/app/deniable" --demo
fi
echo "No display: running the command-line demo on $DEMO"
OUT="${DENIABLE_DEMO_OUT:-$BUILD/demo}"
mkdir -p "$OUT"
CLI="$BUILD/app/deniable-cli"
set -x
# The codebook's category lists are public facts (resources/demo/README.md): declaring them
# spends no budget on discovering them.
SCHEMA=resources/demo/adult_sample.schema.json
"$CLI" inspect "$DEMO" --schema "$SCHEMA" -o "$OUT/schema.json"
# No --mode: the default, marginals (AIM with Private-PGM).
"$CLI" synthesize "$DEMO" --epsilon 1 --schema "$SCHEMA" \
       -n 10000 -o "$OUT/synthetic.csv" --description "$OUT/description.json"
"$CLI" compare "$DEMO" "$OUT/synthetic.csv" -o "$OUT/metrics.json"
"$CLI" synthesize "$DEMO" --mode deniable --k 50 --gamma 4 --schema "$SCHEMA" \
       -n 2000 -o "$OUT/deniable.csv"
"$CLI" generate "$OUT/description.json" -n 1000 -o "$OUT/more.csv"
set +x
echo "Demo outputs are in $OUT"
