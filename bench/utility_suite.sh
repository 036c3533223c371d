#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The utility suite (bench/utility_suite.py, docs/utility-suite.md): every mode of deniable-cli
# on every table of ../shared/data plus a composite wide table, at ε = 0.3, 1, 3, N seeds, with
# the perfect-independent and floor baselines. Seeded runs: reproducible, NOT private releases.
# Usage:
#   bench/utility_suite.sh [CLI_OR_BUILD_DIR] [options]   (default: build/app/deniable-cli)
#   bench/utility_suite.sh build --quick                  (1 seed, ε = 1, 5 tables: ~1 min)
#   bench/utility_suite.sh build --seeds 3 --jobs 2       (the full grid)
# Options: see /usr/bin/python3 bench/utility_suite.py --help. Output: build/utility-suite/
# (results.jsonl, summary.md) unless --out DIR. Debian's python3 is used on purpose: the ML
# columns need its python3-sklearn (apt-get install -y python3-sklearn).
set -euo pipefail
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
SCRIPT="$(cd "$(dirname "$0")" && pwd)/utility_suite.py"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  CLI="$1"; shift
  [ -d "$CLI" ] && CLI="$CLI/app/deniable-cli"
  exec "$PY" "$SCRIPT" --cli "$(realpath -m "$CLI")" "$@"
fi
exec "$PY" "$SCRIPT" "$@"
