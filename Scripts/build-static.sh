#!/usr/bin/env bash
# Builds a release `mediaparse` with the Swift runtime and Foundation linked in (--static-swift-stdlib), so
# that it runs on a machine without Swift, needing only the system ICU (libicu72 on Debian 12), and checks
# with ldd that no Swift library is needed at run time.
#
# Usage: Scripts/build-static.sh [OUT]     OUT: where to copy the binary (default: dist/mediaparse)
#
# Beside the binary it installs the manual page, generated from the commands' help by swift-argument-parser's
# generate-manual plugin: OUT's folder/share/man/man1/mediaparse.1 (`man -l` reads it; put that `share` on
# MANPATH, or copy the file to /usr/local/share/man/man1).
#
# The builds have their own folders (.build-static, .build-manual), so they do not disturb .build.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist/mediaparse}

swift build -c release --static-swift-stdlib --scratch-path .build-static --product mediaparse
bin=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/mediaparse
mkdir -p "$(dirname "$out")"
cp "$bin" "$out"
strip "$out" 2>/dev/null || true
# The grammars compiled with the build travel beside the binary (without them it compiles each grammar at
# its first use, then keeps it in its disk cache).
rm -rf "$(dirname "$out")/MediaParse_MediaParseGrammars.resources"
cp -R "$(dirname "$bin")/MediaParse_MediaParseGrammars.resources" "$(dirname "$out")/"

echo "== shared libraries $out needs (ldd):"
ldd "$out" | sed 's/^/   /'
if ldd "$out" | grep -Ei 'swift|libFoundation|libdispatch|libBlocksRuntime|XCTest|not found'; then
    echo "build-static.sh: FAIL: the binary needs a Swift library (above) or a library that is missing" >&2
    exit 1
fi
echo "== ok: no Swift library needed; $(du -h "$out" | cut -f1) ($out)"

# The manual page: the plugin builds the package (release, in its own folder: it takes no
# --static-swift-stdlib, and its build reuses nothing of the one above; about as long again) and runs the
# binary's help through generate-manual.
swift package --scratch-path .build-manual generate-manual
page=.build-manual/plugins/GenerateManual/outputs/mediaparse/mediaparse.1
man1="$(dirname "$out")/share/man/man1"
mkdir -p "$man1"
cp "$page" "$man1/mediaparse.1"
grep -q "^\.Nm mediaparse" "$man1/mediaparse.1" || { echo "build-static.sh: FAIL: $man1/mediaparse.1 is not the manual page" >&2; exit 1; }
echo "== manual page: $man1/mediaparse.1 (man -l $man1/mediaparse.1)"
echo "== smoke test:"
echo "play Khalid" | "$out"
