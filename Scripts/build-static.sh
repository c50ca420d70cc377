#!/usr/bin/env bash
# Builds a release `mediaparse` with the Swift runtime and Foundation linked in (--static-swift-stdlib), so
# that it runs on a machine without Swift, needing only the system ICU (libicu72 on Debian 12), and checks
# with ldd that no Swift library is needed at run time.
#
# Usage: Scripts/build-static.sh [OUT]     OUT: where to copy the binary (default: dist/mediaparse)
#
# The build has its own folder (.build-static), so it does not disturb .build.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist/mediaparse}

swift build -c release --static-swift-stdlib --scratch-path .build-static --product mediaparse
bin=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/mediaparse
mkdir -p "$(dirname "$out")"
cp "$bin" "$out"
strip "$out" 2>/dev/null || true

echo "== shared libraries $out needs (ldd):"
ldd "$out" | sed 's/^/   /'
if ldd "$out" | grep -Ei 'swift|libFoundation|libdispatch|libBlocksRuntime|XCTest|not found'; then
    echo "build-static.sh: FAIL: the binary needs a Swift library (above) or a library that is missing" >&2
    exit 1
fi
echo "== ok: no Swift library needed; $(du -h "$out" | cut -f1) ($out)"
echo "== smoke test:"
echo "play Khalid" | "$out"
