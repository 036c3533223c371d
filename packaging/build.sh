#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds Deniable in build/ (Release). Usage: packaging/build.sh [cmake args...]
# A new build directory uses Ninja when it is installed (it starts a target's sources while the
# libraries it links are still building, where make waits for them; docs/assurance.md "CI");
# an existing one keeps the generator it was configured with.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${DENIABLE_BUILD_DIR:-build}"
GENERATOR=()
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
  GENERATOR=(-G Ninja)
fi
cmake -S . -B "$BUILD_DIR" "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
