#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clang-tidy (checks in .clang-tidy, ui/.clang-tidy) on the C++ sources changed since a base
# revision, with the flags CMake recorded in BUILD/compile_commands.json (docs/assurance.md).
#
#   packaging/lint.sh [BASE]          the .cpp files changed since BASE (default: main), committed
#                                     or not; a changed header is checked through the .cpp files
#                                     that include it directly (clang-tidy needs a compile command)
#                                     Findings are shown in those files and in the changed headers
#                                     and the checked files' own headers, not in other headers.
#   packaging/lint.sh --files F...    these files instead
#
# Environment: DENIABLE_BUILD_DIR (default build; configure it first: cmake -S . -B build),
# CLANG_TIDY (default clang-tidy-14, else clang-tidy), JOBS (default 1: the machine is shared).
# Findings are printed as warnings; the exit status is 1 when there is any, 0 when none, 2 when
# the tool or the compile commands are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${DENIABLE_BUILD_DIR:-build}
JOBS=${JOBS:-1}

TIDY=${CLANG_TIDY:-}
if [[ -z $TIDY ]]; then
  for candidate in clang-tidy-14 clang-tidy; do
    if command -v "$candidate" >/dev/null 2>&1; then TIDY=$candidate; break; fi
  done
fi
if [[ -z $TIDY ]] || ! command -v "$TIDY" >/dev/null 2>&1; then
  echo "lint.sh: clang-tidy not found (install it: apt-get install clang-tidy-14, or set" \
       "CLANG_TIDY); nothing was checked" >&2
  exit 2
fi
if [[ ! -f $BUILD/compile_commands.json ]]; then
  echo "lint.sh: $BUILD/compile_commands.json not found: configure first" \
       "(cmake -S . -B $BUILD; CMAKE_EXPORT_COMPILE_COMMANDS is on in CMakeLists.txt)" >&2
  exit 2
fi

files=()
headers=()  # headers whose findings are shown: the changed ones and the checked files' own
if [[ ${1:-} == --files ]]; then
  shift
  files=("$@")
else
  base=${1:-main}
  if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
    echo "lint.sh: unknown base revision '$base'" >&2
    exit 2
  fi
  # Changed since the merge base, plus uncommitted changes; deleted files are skipped.
  mapfile -t changed < <({ git diff --name-only --diff-filter=d "$(git merge-base "$base" HEAD)";
                           git ls-files --others --exclude-standard; } |
                         grep -E '\.(cpp|h)$' | sort -u)
  for file in "${changed[@]}"; do
    if [[ $file == *.cpp ]]; then
      files+=("$file")
    else  # a header: the sources that include it directly
      headers+=("$file")
      mapfile -t includers < <(git grep -l --untracked -F "#include \"$file\"" -- '*.cpp' || true)
      files+=("${includers[@]}")
    fi
  done
fi

# Only files with a compile command (tests/fuzz needs the clang fuzz build; bench may be off).
mapfile -t files < <(printf '%s\n' "${files[@]}" | sort -u |
  python3 -c '
import json, os, sys
known = {os.path.realpath(e["file"]) for e in json.load(open(sys.argv[1]))}
for line in sys.stdin:
    path = line.strip()
    if not path:
        continue
    if os.path.realpath(path) in known:
        print(path)
    else:
        print(f"lint.sh: skipped {path} (no compile command in {sys.argv[1]})", file=sys.stderr)
' "$BUILD/compile_commands.json")

if [[ ${#files[@]} -eq 0 ]]; then
  echo "lint.sh: no changed C++ sources to check"
  exit 0
fi
echo "lint.sh: $TIDY on ${#files[@]} file(s) with $BUILD/compile_commands.json" >&2
for file in "${files[@]}"; do
  if [[ -f ${file%.cpp}.h ]]; then headers+=("${file%.cpp}.h"); fi
done
# Findings in other included headers (unchanged code) would bury the change's own.
header_filter='^$'
if [[ ${#headers[@]} -gt 0 ]]; then
  header_filter=$(printf '%s\n' "${headers[@]}" | sort -u | sed 's/[.]/[.]/g; s|^|/|; s/$/$/' |
                  paste -sd '|')
fi

# The compile commands are g++'s: clang does not know every GCC warning flag (-Wno-restrict),
# and -Werror would turn that into an error.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# clang-tidy's own stderr ("N warnings generated", suppressed counts) is noise; its findings,
# compile errors included, go to stdout.
printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "$JOBS" "$TIDY" -p "$BUILD" --quiet --header-filter="$header_filter" \
    --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-error 2>/dev/null |
  tee "$log" || true
count=$(grep -cE ': (warning|error): ' "$log" || true)
echo "lint.sh: $count finding(s)" >&2
[[ $count -eq 0 ]]
