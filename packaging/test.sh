#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The test command: install dependencies, build, run every test suite (ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
bash packaging/install-deps.sh
bash packaging/build.sh -DDENIABLE_WERROR=ON
cd "${DENIABLE_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)" --timeout 1200
# CI (CI=true): the engine's and CLI's unit tests under clang ASan + UBSan (packaging/sanitize.sh
# engine, in build-fuzz; DENIABLE_SANITIZE=0 leaves them out), then the six libFuzzer
# harnesses (same build) replay their corpora and fuzz for 60 s in total. Outside CI,
# DENIABLE_SANITIZE=1 runs both. Time on a fresh clone: docs/assurance.md ("CI").
if [ "${CI:-}" = "true" ] || [ "${DENIABLE_SANITIZE:-0}" = "1" ]; then
  cd "$ROOT"
  if [ "${DENIABLE_SANITIZE:-1}" = "1" ]; then bash packaging/sanitize.sh engine; fi
  bash packaging/fuzz.sh smoke 60
fi
