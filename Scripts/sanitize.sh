#!/usr/bin/env bash
# The test suite under a sanitizer (issue "Reliability"): a build of its own, then `swift test` with the
# sanitizer's options and the committed suppression files of Scripts/sanitizers/, so that a report of ours
# shows and fails the run.
#
#   Scripts/sanitize.sh address [FILTER]   AddressSanitizer + LeakSanitizer on everything; UndefinedBehavior-
#                                          Sanitizer on the C code (CICU, libyaml, NIO's shims). Swift itself
#                                          has no UBSan on Linux: its overflow, bounds and unwrap checks trap
#                                          in every build, and the tests run with them on.
#   Scripts/sanitize.sh thread [FILTER]    ThreadSanitizer.
#
# FILTER is passed to `swift test --filter`. The build goes to .build-asan or .build-tsan (release, with
# -enable-testing, like the optimised test run); the log to that folder's sanitize.log.
# Exit status: 0 when the tests passed and no sanitizer reported anything; 1 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
kind=${1:-}
filter=${2:-}
cd "$root"
case $kind in
  address)
    scratch=.build-asan
    build_flags=(--sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    export LSAN_OPTIONS="suppressions=$here/sanitizers/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
    ;;
  thread)
    scratch=.build-tsan
    build_flags=(--sanitize=thread)
    export TSAN_OPTIONS="suppressions=$here/sanitizers/tsan.supp:halt_on_error=0:second_deadlock_stack=1:report_signal_unsafe=0${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
    ;;
  *) echo "usage: $0 address|thread [FILTER]" >&2; exit 64;;
esac
symbolizer=$(dirname "$(command -v swiftc)")/llvm-symbolizer
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH=$symbolizer TSAN_SYMBOLIZER_PATH=$symbolizer
mkdir -p "$scratch"
log=$scratch/sanitize.log
flags=(-c release -Xswiftc -enable-testing "${build_flags[@]}" --scratch-path "$scratch")
echo "==> building with ${build_flags[*]} into $scratch" >&2
swift build "${flags[@]}" --build-tests > "$scratch/build.log" 2>&1 || { tail -30 "$scratch/build.log"; echo "sanitize: the build failed" >&2; exit 1; }
echo "==> swift test under the $kind sanitizer${filter:+ (--filter $filter)}; log $log" >&2
start=$(date +%s)
status=0
swift test "${flags[@]}" --skip-build ${filter:+--filter "$filter"} > "$log" 2>&1 || status=$?
secs=$(( $(date +%s) - start ))
# Reports: ASan/LSan ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer"), UBSan ("runtime error:"), TSan
# ("WARNING: ThreadSanitizer"), in the test process or in a CLI or server process a test started.
reports=$(grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer' "$log")
summary=$(grep -E 'Executed [0-9]+ tests' "$log" | tail -1)
echo "sanitize $kind: ${summary:-no XCTest summary}; swift test exit $status; sanitizer reports: $reports; ${secs} s"
if [ "$reports" -gt 0 ]; then
  grep -nE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer|SUMMARY:' "$log" | head -20
fi
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
