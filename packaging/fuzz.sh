#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The libFuzzer harnesses (tests/fuzz, docs/assurance.md), built with clang 14 under ASan + UBSan
# in their own build directory (default build-fuzz; DENIABLE_FUZZ_BUILD_DIR overrides it).
#
#   packaging/fuzz.sh build                 configure and build the six harnesses
#   packaging/fuzz.sh smoke [SECONDS]       each harness replays its corpus, then fuzzes; the
#                                           SECONDS (default 60) are shared among the harnesses
#   packaging/fuzz.sh run HARNESS SECONDS [libFuzzer flags...]
#                                           one long run; new inputs go to build-fuzz/corpus/,
#                                           never into the committed corpus (merge by hand)
#   packaging/fuzz.sh merge HARNESS DIR...  minimise DIR... into tests/fuzz/corpus/HARNESS
#
# A finding stops the run with the sanitizer's report and writes crash-*/leak-*/timeout-*/oom-*
# beside the build directory (the current directory of the fuzzer: build-fuzz/artifacts/).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${DENIABLE_FUZZ_BUILD_DIR:-build-fuzz}
HARNESSES=(csv schema_json description datasynthesizer project_file cli_args)
# Limits: a harness input is a file a user could hand us; 64 KB is plenty for every format, and
# each input must finish in 10 s within 2 GB.
FLAGS=(-max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

configure() {
  local extra=()
  if command -v ccache >/dev/null 2>&1; then extra=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  # Ninja for a new build directory, as packaging/build.sh does.
  if [ ! -f "$BUILD/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    extra+=(-G Ninja)
  fi
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 \
    -DDENIABLE_FUZZ=ON -DDENIABLE_BUILD_GUI=OFF -DDENIABLE_BUILD_BENCH=OFF "${extra[@]}" \
    >/dev/null
}

build() {
  configure
  cmake --build "$BUILD" -j "${JOBS:-$(nproc)}" --target "${HARNESSES[@]/#/fuzz_}"
}

# run_one HARNESS SECONDS [flags...]: corpus replay and fuzzing; new inputs in a scratch copy.
run_one() {
  local name=$1 seconds=$2; shift 2
  local work="$BUILD/corpus/$name"
  mkdir -p "$work" "$BUILD/artifacts"
  (cd "$BUILD/artifacts" &&
    "$ROOT/$BUILD/tests/fuzz/fuzz_$name" "${FLAGS[@]}" -max_total_time="$seconds" "$@" \
      "$ROOT/$work" "$ROOT/tests/fuzz/corpus/$name")
}

case "${1:-smoke}" in
  configure) configure ;;
  build) build ;;
  smoke)
    build
    total=${2:-60}
    per=$((total / ${#HARNESSES[@]}))
    [ "$per" -ge 1 ] || per=1
    for name in "${HARNESSES[@]}"; do
      log="$BUILD/artifacts/smoke-$name.log"
      mkdir -p "$BUILD/artifacts"
      # A fixed seed: the same mutations on every machine (a slower one runs a prefix of them),
      # so a CI failure is reproducible with the same command.
      if ! run_one "$name" "$per" -seed=1 >"$log" 2>&1; then
        tail -n 60 "$log"; echo "fuzz smoke: $name FAILED (log: $log)"; exit 1
      fi
      echo "fuzz smoke: $name ok: $(grep -aE '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" | tail -n 1)"
    done ;;
  run)
    [ $# -ge 3 ] || { echo "usage: $0 run HARNESS SECONDS [flags...]" >&2; exit 2; }
    name=$2 seconds=$3; shift 3
    run_one "$name" "$seconds" "$@" ;;
  merge)
    [ $# -ge 3 ] || { echo "usage: $0 merge HARNESS DIR..." >&2; exit 2; }
    name=$2; shift 2
    mkdir -p "tests/fuzz/corpus/$name"
    "$BUILD/tests/fuzz/fuzz_$name" "${FLAGS[@]}" -merge=1 "tests/fuzz/corpus/$name" "$@" ;;
  *) echo "usage: $0 build | smoke [SECONDS] | run HARNESS SECONDS | merge HARNESS DIR..." >&2
     exit 2 ;;
esac
