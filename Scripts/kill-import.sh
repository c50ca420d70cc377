#!/usr/bin/env bash
# Nothing lost (issue "Reliability"): an import killed with SIGKILL at a random point leaves the previous
# catalogue readable and intact. Builds a catalogue of BASE items, then RUNS times starts an import of
# MORE items into it and kills it after a random delay; after each kill the catalogue must open, hold
# exactly BASE items (the killed import's transaction never committed) and resolve a known request.
#
#   Scripts/kill-import.sh [BINARY] [RUNS] [BASE] [MORE]
set -euo pipefail
bin="${1:-.build/release/mediaparse}"
runs="${2:-50}"
base="${3:-20000}"
more="${4:-200000}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

python3 - "$dir" "$base" "$more" <<'PY'
import json, sys, random
d, base, more = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(3)
words = "love night heart fire dream light rain summer city dance river blue gold home road sky".split()
def rows(prefix, n, f):
    for i in range(n):
        title = " ".join(random.choice(words).capitalize() for _ in range(random.randint(1, 4)))
        f.write(json.dumps({"identifier": f"{prefix}{i}", "type": "song", "title": title, "artist": f"Artist {i % 997}"}) + "\n")
with open(f"{d}/base.jsonl", "w") as f:
    rows("b", base, f)
    f.write(json.dumps({"identifier": "known", "type": "song", "title": "Kill Proof Anthem", "artist": "Durable Band"}) + "\n")
with open(f"{d}/more.jsonl", "w") as f:
    rows("m", more, f)
PY

"$bin" catalog import "$dir/base.jsonl" --into "$dir/c.sqlite" 2>/dev/null
expected=$(( base + 1 ))
killed=0
for i in $(seq 1 "$runs"); do
  "$bin" catalog import "$dir/more.jsonl" --into "$dir/c.sqlite" 2>/dev/null &
  pid=$!
  sleep "0.$(( RANDOM % 10 ))$(( RANDOM % 10 ))"
  if kill -9 "$pid" 2>/dev/null; then killed=$(( killed + 1 )); fi
  wait "$pid" 2>/dev/null || true
  items=$("$bin" catalog stats "$dir/c.sqlite" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"])')
  if [ "$items" != "$expected" ]; then
    echo "run $i: the catalogue holds $items items, expected $expected (an import that was killed changed it, or finished)" >&2
    [ "$items" -gt "$expected" ] && { echo "run $i: the import finished before the kill; raise MORE" >&2; }
    exit 1
  fi
  found=$(echo "play kill proof anthem by durable band" | "$bin" resolve --catalog "$dir/c.sqlite" | python3 -c 'import json,sys; r=json.load(sys.stdin)["resolution"]; print(r["items"][0]["identifier"] if r["items"] else "notFound")')
  if [ "$found" != "known" ]; then echo "run $i: the known item resolves to $found" >&2; exit 1; fi
done
echo "kill-import: $runs imports started, $killed killed mid-way with SIGKILL; after each the catalogue opened with its $expected items and resolved"
