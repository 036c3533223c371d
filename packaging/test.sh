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
# CI (CI=true) or DENIABLE_SANITIZE=1: the engine's and CLI's unit tests under clang ASan + UBSan
# and a 60-second fuzz smoke over the six harnesses (one build, build-fuzz; docs/assurance.md).
if [ "${CI:-}" = "true" ] || [ "${DENIABLE_SANITIZE:-0}" = "1" ]; then
  cd "$ROOT"
  bash packaging/sanitize.sh engine
  bash packaging/fuzz.sh smoke 60
fi
