#!/usr/bin/env bash
# The README's embedding example, built and run from a package of its own that depends on this checkout
# with `traits: []`, as an app that only parses would. Fails if SwiftPM resolves anything but Yams (the
# server's and the catalogue's packages must stay behind their traits), if the example does not build, or
# if it prints nothing. Usage: Scripts/embed-check.sh [WORK_DIR]   (default: a temporary folder)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -gt 0 ]; then work="$1"; else work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work/Sources/EmbedCheck"
cat > "$work/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "EmbedCheck",
    dependencies: [.package(path: "$root", traits: [])],
    targets: [.executableTarget(name: "EmbedCheck", dependencies: [.product(name: "MediaParse", package: "$(basename "$root" | tr "A-Z" "a-z")")])]
)
MANIFEST
# The example: the first Swift block after the README's "## Embedding the library" that imports MediaParse.
python3 - "$root/README.md" "$work/Sources/EmbedCheck/main.swift" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index("## Embedding the library"):]
blocks = re.findall(r"```swift\n(.*?)```", section, re.S)
code = next(b for b in blocks if "import MediaParse" in b)
open(sys.argv[2], "w", encoding="utf-8").write(code)
PY
cd "$work"
deps="$(swift package show-dependencies --format flatlist 2>/dev/null | sed 's/<.*//' | sort -u | tr '\n' ' ')"
echo "resolved: $deps"
for d in $deps; do
  case "$d" in yams|"$(basename "$root" | tr 'A-Z' 'a-z')") ;; *) echo "embed-check: '$d' resolved for an app that only parses" >&2; exit 1 ;; esac
done
swift build 2>&1 | tail -1
out="$(.build/debug/EmbedCheck)"
echo "$out"
[ -n "$out" ] || { echo "embed-check: the example printed nothing" >&2; exit 1; }
# The grammars were compiled when the package built, and the example's build carries them.
n="$(ls .build/debug/MediaParse_MediaParseGrammars.resources/*.grammar 2>/dev/null | wc -l)"
echo "compiled grammars beside the example: $n"
[ "$n" -ge 20 ] || { echo "embed-check: the build carries no compiled grammars" >&2; exit 1; }
