#!/usr/bin/env bash
# A full disk (issue "Reliability"): on a real filesystem that fills up (a small tmpfs), every command that
# writes must stop with a clear error naming what it could not write, never crash, and leave what was there
# before intact.
#
#   1. A catalogue of BASE items is built on a tmpfs of SIZE; a second import of MORE items then fills the
#      disk: `catalog import` must exit 65 saying the disk is full, and the catalogue must still open, hold
#      its BASE items and resolve a known request.
#   2. The same import into a new catalogue on the full disk: exit 65, a clear error, no crash.
#   3. Parsing with the output on a full disk (`mediaparse > /dev/full`): exit 74 (EX_IOERR) and a message
#      that says the output could not be written.
#
# Needs root (mount -t tmpfs); says so and exits 2 otherwise.
#
#   Scripts/full-disk.sh [BINARY] [SIZE] [BASE] [MORE]
set -euo pipefail
bin="$(realpath "${1:-.build/release/mediaparse}")"
size="${2:-24m}"
base="${3:-2000}"
more="${4:-100000}"
work="$(mktemp -d)"
disk="$work/disk"
mkdir -p "$disk"
mount -t tmpfs -o "size=$size" tmpfs "$disk" 2>/dev/null || { echo "full-disk: cannot mount a tmpfs (run as root)" >&2; exit 2; }
trap 'umount "$disk" 2>/dev/null; rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

python3 - "$work" "$base" "$more" <<'PY'
import json, sys, random
d, base, more = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(5)
words = "love night heart fire dream light rain summer city dance river blue gold home road sky".split()
def rows(prefix, n, f):
    for i in range(n):
        title = " ".join(random.choice(words).capitalize() for _ in range(random.randint(1, 5)))
        f.write(json.dumps({"identifier": f"{prefix}{i}", "type": "song", "title": title,
                            "artist": f"Artist {i % 997}", "album": f"Album {i % 3001}", "genres": ["pop", "rock"]}) + "\n")
with open(f"{d}/base.jsonl", "w") as f:
    rows("b", base, f)
    f.write(json.dumps({"identifier": "known", "type": "song", "title": "Full Disk Blues", "artist": "Durable Band"}) + "\n")
with open(f"{d}/more.jsonl", "w") as f:
    rows("m", more, f)
PY

# 1. An import that fills the disk.
"$bin" catalog import "$work/base.jsonl" --into "$disk/c.sqlite" > /dev/null 2>&1 || { echo "full-disk: the base catalogue does not fit in $size" >&2; exit 2; }
status=0
"$bin" catalog import "$work/more.jsonl" --into "$disk/c.sqlite" > "$work/out1" 2> "$work/err1" || status=$?
echo "import filling the disk: exit $status, $(df -h --output=used,size "$disk" | tail -1 | xargs) used; stderr: $(head -c 300 "$work/err1")"
[ "$status" = 65 ] || fail "the import that filled the disk exited $status, not 65"
grep -q "disk is full" "$work/err1" || fail "the error does not say the disk is full"
items=$("$bin" catalog stats "$disk/c.sqlite" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"])') || items="unreadable"
echo "after it: the catalogue holds $items items (expected $((base + 1)))"
[ "$items" = "$((base + 1))" ] || fail "the catalogue holds $items items after the failed import"
found=$(echo "play full disk blues by durable band" | "$bin" resolve --catalog "$disk/c.sqlite" \
  | python3 -c 'import json,sys; r=json.load(sys.stdin)["resolution"]; print(r["items"][0]["identifier"] if r["items"] else "notFound")') || found="error"
echo "after it: 'play full disk blues by durable band' resolves to $found"
[ "$found" = known ] || fail "the known item resolves to $found"

# 2. A new catalogue on the full disk: fill what is left first.
dd if=/dev/zero of="$disk/filler" bs=64k 2>/dev/null || true
status=0
"$bin" catalog import "$work/base.jsonl" --into "$disk/new.sqlite" > /dev/null 2> "$work/err2" || status=$?
echo "new catalogue on a full disk: exit $status; stderr: $(head -c 300 "$work/err2")"
[ "$status" = 65 ] || fail "a new catalogue on a full disk exited $status, not 65"
grep -qi "full\|cannot\|could not" "$work/err2" || fail "no clear error for a new catalogue on a full disk"

# 3. Parsing into a full output.
status=0
printf 'play jazz\nskip ahead 30 seconds\n' | "$bin" > /dev/full 2> "$work/err3" || status=$?
echo "parsing into /dev/full: exit $status; stderr: $(head -c 300 "$work/err3")"
[ "$status" = 74 ] || fail "parsing into a full output exited $status, not 74"
[ -s "$work/err3" ] || fail "parsing into a full output said nothing"

if [ "$failures" = 0 ]; then echo "full-disk: every write to a full disk was a clear error and lost nothing"; else exit 1; fi
