#!/usr/bin/env bash
# Feeds the parse command hostile input and checks what the contract promises for each case: exit status
# 0, exactly one output line per input line (lines end at LF, CRLF or a lone CR), every output line a JSON
# object with an "intent" key, and an "error" on each line that cannot be read. Prints, per case, the input
# size, the lines, the error lines, the wall time (start-up, about 0.3 s, included), the wall time per
# line, and the peak memory (/usr/bin/time -v).
#
# Usage: Scripts/hostile-input.sh [MEDIAPARSE] [CASE...]
#   MEDIAPARSE   the binary (default .build/release/mediaparse; build it with `swift build -c release`)
#   CASE         only these cases (names as printed); default all
# Environment: HOSTILE_DIR (where inputs and outputs go, default a fresh temporary folder, removed at the
#   end unless HOSTILE_KEEP=1), HOSTILE_ARGS (extra mediaparse arguments, e.g. "--jobs 2").
#
# Exit status: 0 when every case keeps the promises, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/mediaparse}
[ $# -gt 0 ] && shift
[ -x "$bin" ] || { echo "hostile-input.sh: $bin not found (swift build -c release)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "hostile-input.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
dir=${HOSTILE_DIR:-$(mktemp -d /tmp/mediaparse-hostile.XXXXXX)}
mkdir -p "$dir"
[ "${HOSTILE_KEEP:-0}" = 1 ] || [ -n "${HOSTILE_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT

# ------------------------------------------------------------------------------------------ the inputs
python3 - "$dir" <<'EOF'
import os, sys
out = sys.argv[1]
def write(name, data):
    with open(os.path.join(out, name + ".in"), "wb") as f:
        f.write(data)

u = lambda s: s.encode("utf-8")
write("invalid-utf8", b"\n".join([
    b"play Khalid", b"pl\xff\xfe", b"play \xc3\x28 now", b"\xc0\xaf overlong slash", b"\xed\xa0\x80 a surrogate",
    b"\xf8\x88\x80\x80\x80 five bytes", b"\xf4\x90\x80\x80 past U+10FFFF", b"ends in a cut sequence \xe2\x82",
    b"\x80\x80\x80", b"play Outer Peace"]) + b"\n")
write("nul", b"play\x00Khalid\n\x00\nplay Khalid\x00\n\x00\x00\x00\x00\nplay jazz\n")
write("bom", u("\ufeffplay Khalid\n\ufeffplay jazz\n\ufeff\n"))
write("crlf", b"play Khalid\r\nplay jazz\r\n\r\nfind Billie Eilish\r\n")
write("cr", b"play Khalid\rplay jazz\r\rfind Billie Eilish\r")
write("mixed-line-ends", b"a\nb\r\nc\rd\r\re\n\rf")
write("controls", b"\n".join([b"play \x01\x02\x03 Khalid", b"\x1b[31mplay Khalid\x1b[0m", b"play\tKhalid\x0b\x0c",
    b"\x7f play", u("play \u0085 Khalid \u0080\u009f"), u("play Khalid\u2028play jazz\u2029"), b"\x08\x08\x08"]) + b"\n")
write("bidi", u("\n".join([
    "play \u202eKhalid\u202c", "play \u202dOuter Peace\u202c by \u202bToro y Moi\u202c",
    "play \u2067\u05e9\u05dc\u05d5\u05dd\u2069 on Spotify", "\u200fplay\u200e jazz", "play \u0627\u0644\u0633\u0644\u0627\u0645 \u061c now",
    "\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u202e"])) + b"\n")
zalgo = "K" + "".join(chr(0x300 + i % 0x70) for i in range(1000)) + "halid"
write("emoji-combining", u("\n".join([
    "play \U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466 by Khalid", "play \U0001F1FA\U0001F1F8 anthem",
    "\U0001F44D\U0001F3FD play jazz \u0031\ufe0f\u20e3", "play Beyonce\u0301\u0302\u0303", "play " + zalgo,
    "\U0001F3B5" * 300, "play e\u0301 a\u030a o\u0308 \u1100\u1161\u11a8", "\U000E0067\U000E0062 tags \U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F",
    "\ufe0f\ufe0f\u200d\u200d"])) + b"\n")
# The limits: 2,000 characters and 64 words are parsed, one more is refused.
write("limits", u("\n".join([
    "play " + "x" * 1995, "play " + "x" * 1996, " ".join(["play"] * 64), " ".join(["play"] * 65),
    " ".join(["play the best of"] * 16), " ".join(["Khalid"] * 64), "play " + " ".join(["a" * 29] * 63)[:1995]])) + b"\n")
# Slowest lines inside the limits: 64 words that the grammar knows, in many readings.
words = "play the newest song album by Khalid on Spotify in ControlAudio at double speed shuffled from the seventies " \
        "and add it to my road trip playlist".split()
write("worst-inside-limits", u("\n".join(" ".join(words[(i + k) % len(words)] for i in range(64)) for k in range(40))) + b"\n")
# Number words are the slowest to read (ICU's spell-out parser on every run of up to 7 of them).
import random
rng = random.Random(7)
numbers = "one two three five eight nine twenty seventy nineteen hundred thousand million oh and a half minutes seconds x times".split()
write("number-words-64", u("\n".join(" ".join(rng.choice(numbers) for _ in range(64)) for _ in range(300))) + b"\n")
write("long-line-10MB", b"play " * (2 * 1024 * 1024))                       # one line of 10 MiB, no line end
write("long-line-10MB-then-lines", b"play " * (2 * 1024 * 1024) + b"\nplay Khalid\nplay jazz\n")
short = [b"play Khalid", b"pause", b"", b"x", b"play jazz", b"skip", b"who sings this", b"play 70s punk"]
write("million-short-lines", b"\n".join(short[i % len(short)] for i in range(1_000_000)) + b"\n")
everything = []
for name in sorted(os.listdir(out)):
    if name.endswith(".in") and not name.startswith(("long-line", "million")):
        everything.append(open(os.path.join(out, name), "rb").read())
write("mixed", b"".join(everything))
EOF

# ------------------------------------------------------------------------------------------ the checks
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
    cases=(invalid-utf8 nul bom crlf cr mixed-line-ends controls bidi emoji-combining limits worst-inside-limits
           number-words-64 mixed long-line-10MB long-line-10MB-then-lines million-short-lines)
fi
printf '%-26s %10s %9s %7s %9s %9s %9s %s\n' case "input" lines errors "wall s" "ms/line" "max RSS" result
status=0
for c in "${cases[@]}"; do
    in=$dir/$c.in
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$dir/$c.time" "$bin" ${HOSTILE_ARGS:-} < "$in" > "$dir/$c.out" 2> "$dir/$c.err" \
        && code=0 || code=$?
    # Exit status of mediaparse, not of time: time -v reports it.
    exit_status=$(sed -n 's/^\s*Exit status: //p' "$dir/$c.time")
    [ -n "$exit_status" ] && code=$exit_status
    wall=$(sed -n 's/^\s*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/$c.time" \
           | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }')
    rss=$(sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$dir/$c.time")
    verdict=$(python3 - "$in" "$dir/$c.out" "$code" <<'EOF'
import json, re, sys
data = open(sys.argv[1], "rb").read()
out = open(sys.argv[2], "rb").read()
code = int(sys.argv[3])
# Input lines as the contract counts them: ends at LF, CRLF or a lone CR; a last line without an end counts.
lines = re.split(rb"\r\n|\r|\n", data)
if lines and lines[-1] == b"":
    lines.pop()
got = out.split(b"\n")
if got and got[-1] == b"":
    got.pop()
problems = []
if code != 0:
    problems.append(f"exit {code}")
if len(got) != len(lines):
    problems.append(f"{len(got)} output lines for {len(lines)} input lines")
errors = 0
bad_json = 0
for i, line in enumerate(got):
    try:
        obj = json.loads(line)
    except ValueError:
        bad_json += 1
        continue
    if not isinstance(obj, dict) or "intent" not in obj:
        bad_json += 1
        continue
    if "error" in obj:
        errors += 1
        if obj.get("intent") is not None:
            problems.append(f"line {i + 1}: error with an intent")
    if i < len(lines):
        raw = lines[i]
        if raw.startswith(b"\xef\xbb\xbf") and i == 0:
            raw = raw[3:]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if "error" not in obj:
                problems.append(f"line {i + 1}: not UTF-8 but no error")
            continue
        if len(raw) <= 16384 and obj.get("utterance") != text:
            problems.append(f"line {i + 1}: utterance changed")
        if len(text) > 2000 and "error" not in obj:
            problems.append(f"line {i + 1}: over 2,000 characters but no error")
if bad_json:
    problems.append(f"{bad_json} lines not JSON objects with an intent")
print(f"{len(lines)} {errors} {'ok' if not problems else 'FAIL: ' + '; '.join(problems[:5])}")
EOF
)
    read -r nlines nerrors result <<< "$verdict"
    per_line=$(awk -v w="$wall" -v n="$nlines" 'BEGIN { if (n > 0) printf "%.3f", w * 1000 / n; else print "-" }')
    printf '%-26s %10s %9s %7s %9s %9s %8sM %s\n' "$c" "$(stat -c %s "$in")" "$nlines" "$nerrors" "$wall" "$per_line" \
        "$(( ${rss:-0} / 1024 ))" "$result"
    case $result in ok) ;; *) status=1; [ -s "$dir/$c.err" ] && sed 's/^/    stderr: /' "$dir/$c.err" | head -5 ;; esac
done
exit $status
