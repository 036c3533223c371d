#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The test command: install dependencies, build, run every test suite (ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
bash packaging/build.sh -DDENIABLE_WERROR=ON
cd "${DENIABLE_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)" --timeout 1200
