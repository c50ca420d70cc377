#!/usr/bin/env bash
# The library's API reference and articles (Sources/MediaParse/MediaParse.docc) as a DocC archive, built with
# the toolchain's own `docc` from the symbol graph the compiler emits: no swift-docc-plugin, so that an app
# depending on the package resolves no documentation package (a plugin-only dependency cannot be hidden
# behind a trait). Usage: Scripts/docs.sh [OUT_DIR]   (default .build-docs/out; open
# OUT_DIR/MediaParse.doccarchive with `docc preview`, or host the static site in OUT_DIR/site).
# Fails on any DocC warning (a broken symbol link in an article, say).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$PWD/.build-docs/out}"
rm -rf "$out" && mkdir -p "$out/symbols"
swift build -c release --target MediaParse --scratch-path .build-docs \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$out/symbols" 2>&1 | tail -1
# Only the library's own symbol graphs (not those of Yams or the C shim).
find "$out/symbols" -type f ! -name 'MediaParse*' -delete
docc=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
"$docc" convert Sources/MediaParse/MediaParse.docc --additional-symbol-graph-dir "$out/symbols" \
  --fallback-display-name MediaParse --fallback-bundle-identifier org.mediaparse.MediaParse \
  --output-path "$out/MediaParse.doccarchive" --warnings-as-errors
"$docc" process-archive transform-for-static-hosting "$out/MediaParse.doccarchive" --output-path "$out/site" >/dev/null
echo "docs: $out/MediaParse.doccarchive and the static site $out/site ($(find "$out/site" -name '*.json' | wc -l) pages of data)"
