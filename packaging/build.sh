#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds Deniable in build/ (Release). Usage: packaging/build.sh [cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${DENIABLE_BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
