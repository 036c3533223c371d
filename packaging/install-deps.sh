#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages Deniable needs to build, test and run. Idempotent: does
# nothing when everything is already installed. Run as root or with sudo available.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  clang-14 llvm-14 libfuzzer-14-dev
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libxkbcommon-dev
  libboost-math-dev libgtest-dev libgmock-dev googletest libbenchmark-dev
  nlohmann-json3-dev libgraphviz-dev graphviz libxgboost-dev
  xvfb xauth fonts-dejavu-core fontconfig imagemagick poppler-utils
  dpkg-dev file
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
