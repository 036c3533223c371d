#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sanitizer builds and runs (docs/assurance.md). Each mode has its own build directory.
#
#   packaging/sanitize.sh asan     g++, ASan + UBSan, everything (GUI included), the whole ctest
#                                  suite (QT_QPA_PLATFORM=offscreen)            -> build-asan
#   packaging/sanitize.sh tsan     g++, TSan, the engine's parallel code: the unit tests of the
#                                  modules with thread pools                    -> build-tsan
#   packaging/sanitize.sh engine   clang, ASan + UBSan (the fuzz build, shared with
#                                  packaging/fuzz.sh): the engine's and the CLI's unit tests;
#                                  what CI runs                                 -> build-fuzz
#
# Any sanitizer report fails the test that triggered it (halt_on_error, no recovery). The only
# suppressions are in packaging/sanitizers/ (third-party leaks, each one justified there).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JOBS=${JOBS:-$(nproc)}
SUPP="$ROOT/packaging/sanitizers"
LAUNCHER=()
if command -v ccache >/dev/null 2>&1; then LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

export QT_QPA_PLATFORM=offscreen
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$SUPP/tsan.supp"

# The unit tests of the modules with thread pools or parallel loops (engine/*: sampler,
# privbayes_structure, domains, dependencies, metrics' parallel_tasks, the two-chunk CSV parse,
# the deniable synthesizer, MST/AIM, run_job).
TSAN_TESTS=(io_tests model_tests metrics_tests deniable_tests marginals_tests pipeline_tests)

mode=${1:-}
case "$mode" in
  asan)
    BUILD=${DENIABLE_ASAN_BUILD_DIR:-build-asan}
    flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g1"
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DDENIABLE_BUILD_BENCH=OFF \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      "${LAUNCHER[@]}" >/dev/null
    cmake --build "$BUILD" -j "$JOBS"
    (cd "$BUILD" && ctest --output-on-failure -j "$JOBS" --timeout 3000 "${@:2}")
    ;;
  tsan)
    BUILD=${DENIABLE_TSAN_BUILD_DIR:-build-tsan}
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DDENIABLE_BUILD_GUI=OFF \
      -DDENIABLE_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS="-fsanitize=thread -g1" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" "${LAUNCHER[@]}" >/dev/null
    cmake --build "$BUILD" -j "$JOBS" --target "${TSAN_TESTS[@]}"
    status=0
    for t in "${TSAN_TESTS[@]}"; do
      echo "tsan: $t"
      "$BUILD/tests/$t" --gtest_brief=1 "${@:2}" || status=1
    done
    exit $status
    ;;
  engine)
    bash packaging/fuzz.sh configure
    BUILD=${DENIABLE_FUZZ_BUILD_DIR:-build-fuzz}
    # Only what the unit tests need (the statistical and end-to-end executables are not built;
    # their ctest entries carry no label and -L unit leaves them out).
    cmake --build "$BUILD" -j "$JOBS" --target unit_tests
    (cd "$BUILD" && ctest --output-on-failure -j "$JOBS" --timeout 1200 -L unit "${@:2}")
    ;;
  *)
    echo "usage: $0 asan|tsan|engine [extra ctest / gtest arguments]" >&2
    exit 2 ;;
esac
