#!/usr/bin/env bash
# Builds MediaParse's libFuzzer targets (address sanitizer + libFuzzer, with swiftc outside SwiftPM) and runs
# each one for a while on a scratch copy of its seed corpus.
#
# Usage: Fuzz/run.sh [SECONDS]        SECONDS per target, default 20
#
# Environment:
#   FUZZ_OUT          where to build and run (default /tmp/mediaparse-fuzz); nothing is written in the repository
#   FUZZ_TARGETS      which targets, space-separated (default "parse parse:de-DE parse:fr-FR parse:zh-TW
#                     parse:ja-JP grammar vocabulary http catalog"); "parse:LOCALE" is the parse target in that locale
#                     (MEDIAPARSE_FUZZ_LOCALE), seeded from Fuzz/corpus/parse and Fuzz/corpus/parse-LOCALE
#   FUZZ_JOBS         how many targets run at the same time (default 1)
#   FUZZ_CORPUS_DIR   keep each target's corpus in FUZZ_CORPUS_DIR/<target> across runs (the seeds are added
#                     to it) instead of a scratch copy that is thrown away
#   FUZZ_FLAGS        extra libFuzzer flags for every target (e.g. "-jobs=2" or "-only_ascii=1")
#   FUZZ_BUILD_ONLY=1 build, do not run
#   YAMS_GIT          where to clone Yams from when .build/checkouts/Yams is absent
#                     (default /opt/swift-packages/jpsim/Yams.git)
#   GRDB_GIT          the same for GRDB, which the catalogue target needs
#                     (default /opt/swift-packages/groue/GRDB.swift.git)
#
# Exit status: 0 when every target ran clean; 1 when any target crashed, leaked, timed out or ran out of
# memory (its reproducer is in FUZZ_OUT/runs/<target>/artifacts/, its log next to it); 2 when the build failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
seconds=${1:-20}
out=${FUZZ_OUT:-/tmp/mediaparse-fuzz}
# One locale of each family the tokenizer and recognisers treat apart: English (clitics 's), German
# (compounds, capitals), French (elided articles), Traditional Chinese (characters, the transform to
# Simplified), Japanese (kana and kanji, no spaces).
targets=${FUZZ_TARGETS:-parse parse:de-DE parse:fr-FR parse:zh-TW parse:ja-JP grammar vocabulary http catalog}
jobs=${FUZZ_JOBS:-1}
yams_git=${YAMS_GIT:-/opt/swift-packages/jpsim/Yams.git}
grdb_git=${GRDB_GIT:-/opt/swift-packages/groue/GRDB.swift.git}

case $seconds in ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 64;; esac

swiftc=$(command -v swiftc || true)
[ -n "$swiftc" ] || swiftc=/opt/swift/usr/bin/swiftc
[ -x "$swiftc" ] || { echo "run.sh: swiftc not found (put the Swift toolchain on PATH)" >&2; exit 2; }
clang=$(dirname "$swiftc")/clang  # the toolchain's clang: it has libFuzzer and matches swiftc's sanitizers
[ -x "$clang" ] || clang=$(command -v clang)

# Instrumentation: edge coverage + comparison tracing (libFuzzer) and AddressSanitizer, optimised but with
# debug info so that stack traces name file:line.
swift_flags=(-O -g -sanitize=fuzzer,address -parse-as-library)
c_flags=(-O1 -g -fsanitize=fuzzer-no-link,address)
link_flags=(-use-ld=lld -licuuc -licui18n -licudata)

build=$out/build
mkdir -p "$build" "$out/bin" "$out/runs"

log() { printf '==> %s\n' "$*" >&2; }
fail_build() { echo "run.sh: build failed: $*" >&2; exit 2; }

# A key over the tool versions, the flags and the contents of the given files: a step reruns only when its
# key changes.
tool_version=$("$swiftc" --version 2>&1 | head -1)
key_of() {
    { echo "$tool_version"; echo "${swift_flags[*]} ${c_flags[*]} ${link_flags[*]}"; cat "$@"; } | sha256sum | cut -c1-16
}
up_to_date() { [ -f "$1/.key" ] && [ "$(cat "$1/.key")" = "$2" ]; }

# ---------------------------------------------------------------------------------------------- Yams
yams_version=$(sed -n '/"identity" : "yams"/,/}/s/.*"version" : "\([^"]*\)".*/\1/p' "$root/Package.resolved" 2>/dev/null | head -1)
yams_version=${yams_version:-6.2.2}
if [ -d "$root/.build/checkouts/Yams/Sources/CYaml" ]; then
    yams=$root/.build/checkouts/Yams
else
    yams=$out/src/Yams-$yams_version
    if [ ! -d "$yams/Sources/CYaml" ]; then
        log "cloning Yams $yams_version from $yams_git"
        rm -rf "$yams"
        mkdir -p "$out/src"
        git clone -q --depth 1 --branch "$yams_version" "file://$yams_git" "$yams" 2>/dev/null \
            || git clone -q --branch "$yams_version" "$yams_git" "$yams" || fail_build "cannot clone Yams"
    fi
fi
cyaml_include=$yams/Sources/CYaml/include
cyaml_map=$cyaml_include/module.modulemap
mapfile -t yams_c < <(ls "$yams"/Sources/CYaml/src/*.c)
mapfile -t yams_swift < <(ls "$yams"/Sources/Yams/*.swift)

yams_out=$build/yams
yams_key=$(key_of "${yams_c[@]}" "${yams_swift[@]}" "$cyaml_include"/*.h)
if ! up_to_date "$yams_out" "$yams_key"; then
    log "building Yams ($yams)"
    rm -rf "$yams_out"; mkdir -p "$yams_out"
    for f in "${yams_c[@]}"; do
        "$clang" -c "${c_flags[@]}" -DYAML_DECLARE_STATIC -I"$cyaml_include" "$f" -o "$yams_out/cyaml_$(basename "$f" .c).o" &
    done
    wait
    "$swiftc" "${swift_flags[@]}" -wmo -module-name Yams -D SWIFT_PACKAGE \
        -Xcc -DYAML_DECLARE_STATIC -Xcc -fmodule-map-file="$cyaml_map" -I "$cyaml_include" \
        -emit-module -emit-module-path "$yams_out/Yams.swiftmodule" \
        -c "${yams_swift[@]}" -o "$yams_out/Yams.o" || fail_build "Yams"
    echo "$yams_key" > "$yams_out/.key"
fi

# ---------------------------------------------------------------------------------------------- CICU
cicu_out=$build/cicu
cicu_key=$(key_of "$root/Sources/CICU/cicu.c" "$root"/Sources/CICU/include/*.h)
if ! up_to_date "$cicu_out" "$cicu_key"; then
    log "building CICU"
    rm -rf "$cicu_out"; mkdir -p "$cicu_out"
    "$clang" -c "${c_flags[@]}" -I"$root/Sources/CICU/include" "$root/Sources/CICU/cicu.c" -o "$cicu_out/cicu.o" \
        || fail_build "CICU"
    echo "$cicu_key" > "$cicu_out/.key"
fi
# What SwiftPM generates for a C target with an include/ folder: a module of its headers.
cat > "$cicu_out/module.modulemap.new" <<EOF
module CICU {
    umbrella "$root/Sources/CICU/include"
    export *
}
EOF
cmp -s "$cicu_out/module.modulemap.new" "$cicu_out/module.modulemap" 2>/dev/null \
    && rm "$cicu_out/module.modulemap.new" || mv "$cicu_out/module.modulemap.new" "$cicu_out/module.modulemap"

# ----------------------------------------------------------------------------- embedded grammars
gen_out=$build/gen
mkdir -p "$gen_out"
embedder_swift=("$root/Sources/GrammarEmbedder/main.swift" "$root/Sources/GrammarEmbedder/LibraryInputs.swift")
embedder_key=$(key_of "${embedder_swift[@]}")
if ! up_to_date "$gen_out" "$embedder_key" || [ ! -x "$gen_out/embedder" ]; then
    log "building GrammarEmbedder"
    "$swiftc" -O "${embedder_swift[@]}" -o "$gen_out/embedder" || fail_build "GrammarEmbedder"
    echo "$embedder_key" > "$gen_out/.key"
fi
# The library's sources go to the embedder too: their hash keys the on-disk grammar cache, so a harness
# built from changed sources never reads a grammar compiled by an older build.
mapfile -t lib_swift < <(find "$root/Sources/MediaParse" -name '*.swift' | LC_ALL=C sort)
"$gen_out/embedder" "$root/Grammars" "$gen_out/EmbeddedGrammars.swift" "${lib_swift[@]}" || fail_build "embedding Grammars/"

# ---------------------------------------------------------------------------------------------- MediaParse
lib_out=$build/mediaparse
module_flags=(-I "$yams_out" -I "$lib_out" -Xcc -fmodule-map-file="$cicu_out/module.modulemap"
              -Xcc -fmodule-map-file="$cyaml_map" -I "$cyaml_include")
lib_key=$(echo "$yams_key $cicu_key" | cat - "${lib_swift[@]}" "$gen_out/EmbeddedGrammars.swift" | key_of /dev/stdin)
if ! up_to_date "$lib_out" "$lib_key"; then
    log "building MediaParse (${#lib_swift[@]} files; about a minute)"
    rm -rf "$lib_out"; mkdir -p "$lib_out"
    "$swiftc" "${swift_flags[@]}" -wmo -module-name MediaParse -package-name MediaParse "${module_flags[@]}" \
        -emit-module -emit-module-path "$lib_out/MediaParse.swiftmodule" \
        -c "${lib_swift[@]}" "$gen_out/EmbeddedGrammars.swift" -o "$lib_out/MediaParse.o" || fail_build "MediaParse"
    echo "$lib_key" > "$lib_out/.key"
fi

# ------------------------------------------------------------------ GRDB and MediaParseCatalog
# Only for targets whose folder has a `modules` file naming MediaParseCatalog (the catalogue import target):
# GRDB (SQLite through the system's libsqlite3) and the catalogue module built from the repository's sources.
needs_catalog=0
for spec in $targets; do
    t=${spec%%:*}
    grep -qx MediaParseCatalog "$here/$t/modules" 2>/dev/null && needs_catalog=1
done
catalog_objects=()
catalog_flags=()
if [ "$needs_catalog" = 1 ]; then
    grdb_version=$(sed -n '/"identity" : "grdb.swift"/,/}/s/.*"version" : "\([^"]*\)".*/\1/p' "$root/Package.resolved" 2>/dev/null | head -1)
    grdb_version=${grdb_version:-7.10.0}
    if [ -d "$root/.build/checkouts/GRDB.swift/GRDB" ]; then
        grdb=$root/.build/checkouts/GRDB.swift
    else
        grdb=$out/src/GRDB.swift-$grdb_version
        if [ ! -d "$grdb/GRDB" ]; then
            log "cloning GRDB $grdb_version from $grdb_git"
            rm -rf "$grdb"; mkdir -p "$out/src"
            git clone -q --depth 1 --branch "v$grdb_version" "file://$grdb_git" "$grdb" 2>/dev/null \
                || git clone -q --branch "v$grdb_version" "$grdb_git" "$grdb" 2>/dev/null \
                || git clone -q --branch "$grdb_version" "$grdb_git" "$grdb" || fail_build "cannot clone GRDB"
        fi
    fi
    grdb_map=$grdb/Sources/GRDBSQLite/module.modulemap
    mapfile -t grdb_swift < <(find "$grdb/GRDB" -name '*.swift' | LC_ALL=C sort)
    grdb_out=$build/grdb
    grdb_key=$(key_of "${grdb_swift[@]}" "$grdb_map")
    if ! up_to_date "$grdb_out" "$grdb_key"; then
        log "building GRDB (${#grdb_swift[@]} files; a few minutes)"
        rm -rf "$grdb_out"; mkdir -p "$grdb_out"
        # The defines of GRDB's own Package.swift on Linux.
        "$swiftc" "${swift_flags[@]}" -wmo -module-name GRDB -D SWIFT_PACKAGE -D SQLITE_ENABLE_FTS5 \
            -D SQLITE_ENABLE_SNAPSHOT -D SQLITE_DISABLE_SNAPSHOT -Xcc -fmodule-map-file="$grdb_map" \
            -emit-module -emit-module-path "$grdb_out/GRDB.swiftmodule" \
            -c "${grdb_swift[@]}" -o "$grdb_out/GRDB.o" || fail_build "GRDB"
        echo "$grdb_key" > "$grdb_out/.key"
    fi
    mapfile -t catalog_swift < <(find "$root/Sources/MediaParseCatalog" -name '*.swift' | LC_ALL=C sort)
    mpc_out=$build/mediaparse-catalog
    mpc_key=$(echo "$lib_key $grdb_key" | cat - "${catalog_swift[@]}" | key_of /dev/stdin)
    catalog_flags=(-I "$grdb_out" -I "$mpc_out" -Xcc -fmodule-map-file="$grdb_map")
    if ! up_to_date "$mpc_out" "$mpc_key"; then
        log "building MediaParseCatalog"
        rm -rf "$mpc_out"; mkdir -p "$mpc_out"
        "$swiftc" "${swift_flags[@]}" -wmo -module-name MediaParseCatalog -package-name MediaParse \
            "${module_flags[@]}" "${catalog_flags[@]}" \
            -emit-module -emit-module-path "$mpc_out/MediaParseCatalog.swiftmodule" \
            -c "${catalog_swift[@]}" -o "$mpc_out/MediaParseCatalog.o" || fail_build "MediaParseCatalog"
        echo "$mpc_key" > "$mpc_out/.key"
    fi
    catalog_objects=("$mpc_out/MediaParseCatalog.o" "$grdb_out/GRDB.o")
fi

# ---------------------------------------------------------------------------------------------- harnesses
# A target is its folder's Swift files, plus the repository files its `sources` file lists (one path per
# line, from the repository's root: the HTTP target compiles the server's own body reader), plus the
# catalogue modules when its `modules` file names MediaParseCatalog.
objects=("$lib_out/MediaParse.o" "$yams_out"/*.o "$cicu_out/cicu.o")
built=" "
for spec in $targets; do
    target=${spec%%:*}
    case "$built" in *" $target "*) continue;; esac
    built="$built$target "
    [ -d "$here/$target" ] || { echo "run.sh: unknown target '$target'" >&2; exit 64; }
    harness_out=$build/harness-$target
    mkdir -p "$harness_out"
    extra=()
    if [ -f "$here/$target/sources" ]; then
        while read -r line; do [ -n "$line" ] && extra+=("$root/$line"); done < "$here/$target/sources"
    fi
    target_objects=("${objects[@]}")
    target_flags=("${module_flags[@]}")
    target_links=("${link_flags[@]}")
    if grep -qx MediaParseCatalog "$here/$target/modules" 2>/dev/null; then
        target_objects=("${catalog_objects[@]}" "${objects[@]}")
        target_flags+=("${catalog_flags[@]}")
        target_links+=(-lsqlite3)
    fi
    harness_key=$(echo "$lib_key ${mpc_key:-}" | cat - "$here/$target"/*.swift "${extra[@]}" | key_of /dev/stdin)
    if ! up_to_date "$harness_out" "$harness_key" || [ ! -x "$out/bin/fuzz-$target" ]; then
        log "linking fuzz-$target"
        "$swiftc" "${swift_flags[@]}" -package-name MediaParse "${target_flags[@]}" "$here/$target"/*.swift \
            "${extra[@]}" "${target_objects[@]}" "${target_links[@]}" -o "$out/bin/fuzz-$target" \
            || fail_build "harness $target"
        echo "$harness_key" > "$harness_out/.key"
    fi
done
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && { log "built: $(cd "$out/bin" && echo fuzz-*) in $out/bin"; exit 0; }

# ---------------------------------------------------------------------------------------------- running
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="abort_on_error=0:symbolize=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
symbolizer=$(dirname "$swiftc")/llvm-symbolizer
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH=$symbolizer

run_target() {
    local spec=$1 target=${1%%:*} locale=${1#*:} name=${1/:/-} work=$out/runs/${1/:/-}
    [ "$locale" = "$spec" ] && locale=""
    rm -rf "$work"; mkdir -p "$work/artifacts"
    local corpus=$work/corpus
    [ -n "${FUZZ_CORPUS_DIR:-}" ] && corpus=$FUZZ_CORPUS_DIR/$name
    mkdir -p "$corpus"
    cp -n "$here/corpus/$target"/* "$corpus/" 2>/dev/null || true  # the seeds, next to what earlier runs kept
    [ -n "$locale" ] && { cp -n "$here/corpus/$target-$locale"/* "$corpus/" 2>/dev/null || true; }
    local flags=(-max_total_time="$seconds" -timeout=5 -rss_limit_mb=4096 -print_final_stats=1
                 -artifact_prefix="$work/artifacts/" -dict="$here/dict/$target.dict")
    case $target in grammar|http|catalog) flags+=(-max_len=4096);; esac
    # A grammar input is compiled as a locale is: the number words are asked of ICU, some two seconds under
    # AddressSanitizer on a two-core machine and more when it is busy (a 5 s bound failed a run while another
    # build ran). A hang still fails, after 15 s.
    [ "$target" = grammar ] && flags+=(-timeout=15)
    # A catalogue input builds the runtime of each language its rows name, which asks ICU the same way (a
    # seed of three rows took 8 s alone under AddressSanitizer; a 5 s bound failed a run while a build ran,
    # on the session's code and on the code before it alike). A hang still fails, after 15 s.
    [ "$target" = catalog ] && flags+=(-timeout=15)
    # The catalogue target allocates caches that outlive an input (SQLite's, GRDB's), so libFuzzer's leak
    # check after each input would scan the whole heap every time (4 inputs a second instead of 50);
    # LeakSanitizer still checks the whole run when the process ends.
    [ "$target" = catalog ] && flags+=(-detect_leaks=0)
    # shellcheck disable=SC2206
    flags+=(${FUZZ_FLAGS:-})
    echo "${locale:+MEDIAPARSE_FUZZ_LOCALE=$locale }$out/bin/fuzz-$target ${flags[*]} $corpus" > "$work/command"
    local status=0
    MEDIAPARSE_FUZZ_LOCALE="${locale:-en-US}" "$out/bin/fuzz-$target" "${flags[@]}" "$corpus" > "$work/log" 2>&1 || status=$?
    echo "$status" > "$work/status"
}

summarise() {
    local target=$1 work=$out/runs/${1/:/-} status
    status=$(cat "$work/status")
    local last execs speed
    last=$(grep -E '^#[0-9]+' "$work/log" | grep -E 'cov:' | tail -1 || true)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -1)
    # Fork mode prints no final stats; its last status line has the count and the speed.
    [ -n "$execs" ] || execs=$(echo "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
    [ -n "$speed" ] || speed=$(echo "$last" | sed -n 's/.*exec\/s: \([0-9]*\).*/\1/p')
    local cov ft
    cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    local artifacts
    artifacts=$(ls "$work/artifacts" 2>/dev/null || true)
    if [ "$status" = 0 ] && [ -z "$artifacts" ]; then
        printf 'ok    %-10s %s runs, %s/s, cov %s ft %s\n' "$target" "${execs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}"
        return 0
    fi
    printf 'FAIL  %-10s exit %s after %s runs (cov %s ft %s); log %s\n' "$target" "$status" "${execs:-?}" \
        "${cov:-?}" "${ft:-?}" "$work/log"
    for a in $artifacts; do printf '        reproducer: %s\n' "$work/artifacts/$a"; done
    # The sanitizer's or Swift's report, without libFuzzer's chatter.
    sed -n '/^==[0-9]*== *ERROR\|Fatal error\|^ALARM\|deadly signal\|out-of-memory/,/^SUMMARY/p' "$work/log" \
        | head -60 | sed 's/^/        /'
    return 1
}

log "fuzzing $targets for $seconds s each (output in $out/runs)"
running=0
for target in $targets; do
    if [ "$jobs" -gt 1 ]; then
        run_target "$target" &
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
    else
        run_target "$target"
    fi
done
wait

result=0
for target in $targets; do summarise "$target" || result=1; done
exit $result
