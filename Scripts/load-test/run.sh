#!/usr/bin/env bash
# Load test of `mediaparse serve` with wrk (see README.md beside this file).
#
# Starts the server on a free loopback port and measures, at 1, 8 and 64 connections, single requests
# (one utterance each, cycling through the benchmark utterances) and batch requests (BATCH utterances
# each): requests/s, utterances/s, p50 and p99 latency. Then the CLI's rate on the same utterances, and
# the ratio server ÷ CLI. Then a hostile run at 8 and 64 connections (1 request in HOSTILE_EVERY has a
# hostile body): every good request must get 200 and exactly the CLI's answer, every hostile one its 4xx,
# with the server's RSS sampled every second. Last, SIGTERM: the server must exit 0 within 5 s.
#
# Usage: Scripts/load-test/run.sh [MEDIAPARSE]
#   MEDIAPARSE   the binary (default .build/release/mediaparse; copy it elsewhere first if a build may
#                replace it during the run)
# Environment:
#   DURATION=10            seconds of each throughput run      HOSTILE_DURATION=DURATION  of each hostile run
#   CONNECTIONS="1 8 64"   throughput runs                     HOSTILE_CONNECTIONS="8 64"
#   BATCH=32               utterances per batch request        HOSTILE_EVERY=20
#   BIG_BYTES=2097152      the oversized hostile body          RSS_LIMIT_MB=50  growth allowed, hostile run
#   CLI_LINES=20000        lines piped through the CLI         LT_CHECK=0  1: check throughput responses too
#   UTTERANCES=Benchmarks/en-US.txt                            LT_KINDS=a,b  only these hostile kinds
#   LT_OUT=DIR  keep the logs there (else a temporary folder, removed unless LT_KEEP=1)
#   LT_NICE=N              run the server, wrk and the CLI with nice -n N (e.g. -10 beside a build)
#   MEDIAPARSE_CACHE       the grammar cache (default a folder in LT_OUT, filled by the CLI first)
#   SOAK_MINUTES=N         a soak instead: no throughput or CLI runs, N hostile runs of 60 s back to back at
#                          SOAK_CONNECTIONS (64), one line of figures per minute, the RSS checked for growth
# Needs wrk (apt-get install wrk), python3 and curl.
#
# Exit status: 0 when everything held; 1 on a wrong answer, a 5xx, a socket error or timeout, a server
# crash, RSS growth over the limit, or a shutdown that is not clean; 2 on bad setup.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${1:-$repo/.build/release/mediaparse}
DURATION=${DURATION:-10}
HOSTILE_DURATION=${HOSTILE_DURATION:-$DURATION}
CONNECTIONS=${CONNECTIONS:-1 8 64}
HOSTILE_CONNECTIONS=${HOSTILE_CONNECTIONS:-8 64}
BATCH=${BATCH:-32}
HOSTILE_EVERY=${HOSTILE_EVERY:-20}
BIG_BYTES=${BIG_BYTES:-2097152}
RSS_LIMIT_MB=${RSS_LIMIT_MB:-50}
CLI_LINES=${CLI_LINES:-20000}
LT_CHECK=${LT_CHECK:-0}
UTTERANCES=${UTTERANCES:-$repo/Benchmarks/en-US.txt}
LOCALE=en-US
SOAK_MINUTES=${SOAK_MINUTES:-0}
SOAK_CONNECTIONS=${SOAK_CONNECTIONS:-64}
case $SOAK_MINUTES in ''|*[!0-9]*) echo "run.sh: SOAK_MINUTES takes a whole number" >&2; exit 2;; esac
# LT_NICE=-10: run the server, wrk and the CLI at that niceness (root only for a negative one), so a build
# running beside them takes less of the CPU from the figures.
nice=()
[ -n "${LT_NICE:-}" ] && nice=(nice -n "$LT_NICE")

die() { echo "run.sh: $*" >&2; exit 2; }
[ -x "$bin" ] || die "$bin not found (swift build -c release)"
for tool in wrk python3 curl; do command -v $tool >/dev/null || die "needs $tool"; done
[ -r "$UTTERANCES" ] || die "cannot read $UTTERANCES"

out=${LT_OUT:-$(mktemp -d /tmp/mediaparse-load.XXXXXX)}
mkdir -p "$out"
server_pid=
sampler_pid=
cleanup() {
  if [ -n "$sampler_pid" ]; then kill "$sampler_pid" 2>/dev/null || true; fi
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  if [ -z "${LT_OUT:-}" ] && [ "${LT_KEEP:-0}" != 1 ]; then rm -rf "$out"; else echo "logs kept in $out"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

failures=()
fail() { failures+=("$*"); echo "FAIL: $*"; }

cores=$(nproc)
echo "mediaparse load test, $(date -u '+%Y-%m-%d %H:%M UTC'), $cores cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
echo "binary: $bin${LT_NICE:+ (nice -n $LT_NICE)}"
echo "uptime at start:$(uptime | sed 's/.*up [^,]*,[^,]*, *//; s/^/ /')"

# The compiled-grammar cache: a folder of this run's own (unless MEDIAPARSE_CACHE is set), filled by the
# CLI below, so the server loads the grammar from it as a deployed one would, and so the run neither
# depends on nor evicts the files of ~/.cache/mediaparse (it keeps 12, shared by every build and test).
export MEDIAPARSE_CACHE=${MEDIAPARSE_CACHE:-$out/cache}
[ "$MEDIAPARSE_CACHE" = off ] || mkdir -p "$MEDIAPARSE_CACHE"

# ------------------------------------------------------------------------------- the expected answers
lines=$(wc -l < "$UTTERANCES")
${nice[@]+"${nice[@]}"} "$bin" --locale "$LOCALE" < "$UTTERANCES" > "$out/expected.jsonl"
[ "$(wc -l < "$out/expected.jsonl")" -eq "$lines" ] || die "the CLI gave $(wc -l < "$out/expected.jsonl") lines for $lines"
python3 - "$UTTERANCES" "$out/expected.jsonl" "$out/data.lua" <<'EOF'
# The data file the wrk scripts load: each utterance as a JSON string literal, and the CLI's line for it,
# as Lua strings (every byte outside printable ASCII escaped).
import json, sys
utt_path, exp_path, out_path = sys.argv[1:4]
def lines(path):
    data = open(path, "rb").read().split(b"\n")
    if data and data[-1] == b"":
        data.pop()
    return data
utts, exp = lines(utt_path), lines(exp_path)
assert len(utts) == len(exp), (len(utts), len(exp))
def lua(b):
    return '"' + "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else "\\%03d" % c for c in b) + '"'
with open(out_path, "w") as f:
    f.write("return {\ntexts = {\n")
    for u in utts:
        f.write(lua(json.dumps(u.decode("utf-8"), ensure_ascii=False).encode("utf-8")) + ",\n")
    f.write("},\nexpected = {\n")
    for e in exp:
        f.write(lua(e) + ",\n")
    f.write("},\n}\n")
EOF

# -------------------------------------------------------------------------------------- the server
: > "$out/phase"
: > "$out/server.log"   # (truncated here, so a reused LT_OUT never shows the last run's port)
${nice[@]+"${nice[@]}"} "$bin" serve --host 127.0.0.1 --port 0 --locale "$LOCALE" 2> "$out/server.log" &
server_pid=$!
port=
for _ in $(seq 600); do
  port=$(sed -n 's|^mediaparse serve: listening on http://127\.0\.0\.1:\([0-9][0-9]*\) .*|\1|p' "$out/server.log" | head -n 1)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$out/server.log" >&2; die "the server exited at start"; }
  sleep 0.1
done
[ -n "$port" ] || die "the server did not say it was listening within 60 s"
url="http://127.0.0.1:$port/parse"
echo "server: pid $server_pid, $url, RSS $(awk '/^VmRSS:/ {printf "%.0f MB", $2/1024}' "/proc/$server_pid/status") when ready (grammar cache: $MEDIAPARSE_CACHE)"

# The RSS (kB) every second, with the phase it was taken in.
(
  while kill -0 "$server_pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$server_pid/status" 2>/dev/null || true)
    [ -n "$rss" ] && echo "$(date +%s) $(cat "$out/phase" 2>/dev/null || true) $rss"
    sleep 1
  done
) > "$out/rss.log" &
sampler_pid=$!
rss_now() { awk '/^VmRSS:/ {printf "%.0f", $2/1024}' "/proc/$server_pid/status" 2>/dev/null || echo "?"; }

# At rest: the whole file as one batch, and one utterance alone, must be the CLI's bytes.
python3 - "$out/expected.jsonl" "$UTTERANCES" "$out" <<'EOF'
import json, sys
exp = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
utts = open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1]
open(sys.argv[3] + "/batch-all.json", "w", encoding="utf-8").write(json.dumps({"texts": utts}, ensure_ascii=False))
open(sys.argv[3] + "/batch-all.expected", "wb").write(b"[" + b",".join(exp) + b"]\n")
open(sys.argv[3] + "/single-1.json", "w", encoding="utf-8").write(json.dumps({"text": utts[0]}, ensure_ascii=False))
open(sys.argv[3] + "/single-1.expected", "wb").write(exp[0] + b"\n")
EOF
for name in batch-all single-1; do
  status=$(curl -sS -o "$out/$name.got" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "@$out/$name.json" "$url")
  if [ "$status" = 200 ] && cmp -s "$out/$name.got" "$out/$name.expected"; then :; else
    fail "at rest, $name: status $status, body $(cmp "$out/$name.got" "$out/$name.expected" 2>&1 | head -n 1)"
  fi
done
echo "at rest: all $lines utterances in one batch, and one alone, give the CLI's bytes: $([ ${#failures[@]} -eq 0 ] && echo yes || echo NO)"

# CPU ticks: the machine's busy time, the server's, and this shell's waited-for children (wrk, the CLI).
ticks() {
  local busy srv kids
  busy=$(awk '/^cpu / {print $2+$3+$4+$7+$8+$9}' /proc/stat)
  srv=$(sed 's/.*) //' "/proc/$server_pid/stat" 2>/dev/null | awk '{print $12+$13}' || echo 0)
  kids=$(sed 's/.*) //' "/proc/$$/stat" | awk '{print $14+$15}')
  echo "$busy ${srv:-0} $kids $(date +%s%N)"
}
# "server% client% other%": CPU used between two ticks snapshots, in % of one core.
cpu_use() {
  local hz; hz=$(getconf CLK_TCK)
  read -r b0 s0 k0 t0 <<< "$1"; read -r b1 s1 k1 t1 <<< "$2"
  awk -v b=$((b1 - b0)) -v s=$((s1 - s0)) -v k=$((k1 - k0)) -v t=$((t1 - t0)) -v hz="$hz" \
    'BEGIN { secs = t / 1e9; o = b - s - k; if (o < 0) o = 0; printf "%.0f %.0f %.0f", 100*s/hz/secs, 100*k/hz/secs, 100*o/hz/secs }'
}
lt() { awk -v k="$2" '$1 == "LT" && $2 == k {print $3; exit}' "$1"; }
log_lines() { wc -l < "$out/server.log"; }
alive() { kill -0 "$server_pid" 2>/dev/null; }

# run_wrk NAME SCRIPT CONNECTIONS SECONDS: runs wrk, leaves its output in $out/NAME.txt and the server's
# access-log lines of the run in $out/NAME.log.
run_wrk() {
  local name=$1 script=$2 c=$3 secs=$4 t before after
  t=$(( c < 2 ? c : 2 ))
  echo "$name" > "$out/phase"
  before=$(log_lines)
  LT_DIR=$here LT_DATA=$out/data.lua LT_BATCH=$BATCH LT_HOSTILE_EVERY=$HOSTILE_EVERY LT_BIG_BYTES=$BIG_BYTES \
    LT_CHECK=$LT_CHECK ${nice[@]+"${nice[@]}"} wrk -t"$t" -c"$c" -d"${secs}s" --timeout 10s --latency -s "$here/$script" "$url" \
    > "$out/$name.txt" 2>&1 || fail "$name: wrk exited $?"
  sleep 0.2
  after=$(log_lines)
  sed -n "$((before + 1)),${after}p" "$out/server.log" > "$out/$name.log"
  echo "" > "$out/phase"
}
# check_run NAME: the checks every run shares (wrk's socket errors, 5xx in the access log, the server alive).
check_run() {
  local name=$1 e n
  for e in connect read write timeout; do
    n=$(lt "$out/$name.txt" "err_$e"); [ "${n:-0}" -eq 0 ] || fail "$name: $n socket $e errors/timeouts (wrk)"
  done
  n=$(awk '$1 != "mediaparse" && $(NF-2) >= 500 {n++} END {print n+0}' "$out/$name.log")
  [ "$n" -eq 0 ] || fail "$name: $n responses 5xx in the server's log"
  [ -n "$(lt "$out/$name.txt" requests)" ] || fail "$name: no figures from wrk (see $out/$name.txt)"
  alive || fail "$name: the server is gone; its last lines: $(tail -n 3 "$out/server.log" | tr '\n' ' ')"
}
slowest() { awk '$1 != "mediaparse" && $NF + 0 > m {m = $NF + 0} END {printf "%.1f", m}' "$1"; }

if [ "$SOAK_MINUTES" -eq 0 ]; then  # a soak has neither throughput nor CLI runs
# ------------------------------------------------------------------------------------ throughput
declare -A ups
printf '\n%-7s %5s %10s %12s %8s %8s %9s %6s %7s %-17s\n' mode conns "req/s" "utt/s" "p50 ms" "p99 ms" "srv max" non200 "RSS MB" "cpu srv/wrk/other"
for mode in single batch; do
  for c in $CONNECTIONS; do
    name=$mode-$c
    t0=$(ticks)
    run_wrk "$name" "$mode.lua" "$c" "$DURATION"
    t1=$(ticks)
    check_run "$name"
    rps=$(lt "$out/$name.txt" rps)
    per=$([ "$mode" = batch ] && echo "$BATCH" || echo 1)
    ups[$name]=$(awk -v r="${rps:-0}" -v p="$per" 'BEGIN {printf "%.0f", r * p}')
    non200=$(lt "$out/$name.txt" err_status)
    [ "${non200:-0}" -eq 0 ] || fail "$name: $non200 responses not 200"
    if [ "$LT_CHECK" = 1 ]; then
      n=$(lt "$out/$name.txt" mismatch); [ "${n:-0}" -eq 0 ] || fail "$name: $n wrong answers: $(lt "$out/$name.txt" sample)"
    fi
    printf '%-7s %5s %10s %12s %8s %8s %9s %6s %7s %-17s\n' "$mode" "$c" "$rps" "${ups[$name]}" \
      "$(lt "$out/$name.txt" p50_ms)" "$(lt "$out/$name.txt" p99_ms)" "$(slowest "$out/$name.log")" "${non200:-?}" \
      "$(rss_now)" "$(cpu_use "$t0" "$t1" | tr ' ' /)"
  done
done
echo "(srv max: the slowest request in the server's own log, ms; cpu: % of one core, server / wrk / everything else on the machine)"
echo "uptime after the throughput runs:$(uptime | sed 's/.*up [^,]*,[^,]*, *//; s/^/ /')"

# ------------------------------------------------------------------------------------------ the CLI
reps=$(( (CLI_LINES + lines - 1) / lines ))
for _ in $(seq "$reps"); do cat "$UTTERANCES"; done > "$out/cli-input.txt"
cli_lines=$(wc -l < "$out/cli-input.txt")
declare -A cli_ups
for jobs in 1 2; do
  t0=$(ticks)
  ${nice[@]+"${nice[@]}"} "$bin" --locale "$LOCALE" --jobs "$jobs" < "$out/cli-input.txt" > "$out/cli-output-$jobs.jsonl"
  t1=$(ticks)
  read -r _ _ _ ns0 <<< "$t0"; read -r _ _ _ ns1 <<< "$t1"
  [ "$(wc -l < "$out/cli-output-$jobs.jsonl")" -eq "$cli_lines" ] || fail "CLI --jobs $jobs: wrong line count"
  for _ in $(seq "$reps"); do cat "$out/expected.jsonl"; done | cmp -s - "$out/cli-output-$jobs.jsonl" \
    || fail "CLI --jobs $jobs: output differs from its single pass"
  cli_ups[$jobs]=$(awk -v n="$cli_lines" -v ns=$((ns1 - ns0)) 'BEGIN {printf "%.0f", n / (ns / 1e9)}')
  read -r _ cli_cpu other <<< "$(cpu_use "$t0" "$t1")"
  printf '\nCLI --jobs %s: %s lines in %.2f s (start-up included) = %s utterances/s (CPU %s%%, other load %s%%)' \
    "$jobs" "$cli_lines" "$(awk -v ns=$((ns1 - ns0)) 'BEGIN {print ns / 1e9}')" "${cli_ups[$jobs]}" "$cli_cpu" "$other"
done
echo
printf '\nserver utterances/s ÷ CLI (--jobs 1, %s utt/s):\n' "${cli_ups[1]}"
printf '%-7s' mode; for c in $CONNECTIONS; do printf ' %8s' "c=$c"; done; echo
for mode in single batch; do
  printf '%-7s' "$mode"
  for c in $CONNECTIONS; do printf ' %8s' "$(awk -v s="${ups[$mode-$c]}" -v k="${cli_ups[1]}" 'BEGIN {printf "%.2f", s / k}')"; done
  echo
done

fi

# -------------------------------------------------------------------------------------- hostile
echo
# The hostile runs: one per connection count, or a soak's minutes ("CONNECTIONS:MINUTE").
hostile_runs=()
if [ "$SOAK_MINUTES" -gt 0 ]; then
  HOSTILE_DURATION=60
  for m in $(seq -w 1 "$SOAK_MINUTES"); do hostile_runs+=("$SOAK_CONNECTIONS:$m"); done
  echo "soak: 1 request in $HOSTILE_EVERY hostile, $SOAK_MINUTES minutes at $SOAK_CONNECTIONS connections, one line a minute"
  printf '%-6s %9s %9s %8s %8s %6s %5s %8s %8s %8s %7s\n' minute "good" "good ok" hostile "host ok" wrong 5xx "p50 ms" "p99 ms" "srv max" "RSS MB"
else
  for c in $HOSTILE_CONNECTIONS; do hostile_runs+=("$c:"); done
  echo "hostile run: 1 request in $HOSTILE_EVERY hostile, ${HOSTILE_DURATION} s at each of $HOSTILE_CONNECTIONS connections"
fi
for run in "${hostile_runs[@]}"; do
  c=${run%%:*}; minute=${run#*:}
  name=hostile-$c${minute:+-minute$minute}
  run_wrk "$name" hostile.lua "$c" "$HOSTILE_DURATION"
  check_run "$name"
  f=$out/$name.txt
  good=$(lt "$f" sent); ok=$(lt "$f" ok); hs=$(lt "$f" hostile_sent); hok=$(lt "$f" hostile_ok)
  mism=$(lt "$f" mismatch); s5=$(lt "$f" s5xx); infl=$(lt "$f" inflight)
  if [ -n "$minute" ]; then
    printf '%-6s %9s %9s %8s %8s %6s %5s %8s %8s %8s %7s\n' "$minute" "$good" "$ok" "$hs" "$hok" "$mism" "$s5" \
      "$(lt "$f" p50_ms)" "$(lt "$f" p99_ms)" "$(slowest "$out/$name.log")" "$(rss_now)"
  else
    printf 'c=%-3s good: %s sent, %s answered 200 with the CLI'"'"'s bytes; hostile: %s sent, %s answered their 4xx; wrong: %s (5xx: %s); unanswered at the end: %s; p50 %s ms, p99 %s ms, server max %s ms\n' \
      "$c" "$good" "$ok" "$hs" "$hok" "$mism" "$s5" "$infl" "$(lt "$f" p50_ms)" "$(lt "$f" p99_ms)" "$(slowest "$out/$name.log")"
    awk '$1 == "LT" && $2 == "kind" {printf "      %-24s %s  %5s sent %5s right\n", $3, $4, $5, $6}' "$f"
  fi
  [ "${mism:-1}" -eq 0 ] || fail "$name: $mism wrong answers; first: $(awk '$1 == "LT" && $2 == "sample" {$1 = $2 = ""; print; exit}' "$f")"
  [ "${s5:-0}" -eq 0 ] || fail "$name: $s5 answers 5xx"
  # wrk has the script make one request per run that it never writes: in every minute of a 30-minute soak
  # the server's log held exactly one request fewer than the script counted. So up to c + 1 may be
  # unanswered when wrk stops (c in flight, one never sent), and the server must have answered all but one.
  [ "${infl:-999}" -le "$((c + 1))" ] || fail "$name: $infl requests unanswered, more than the $c connections (+1)"
  logged=$(grep -vc '^mediaparse' "$out/$name.log" || true)
  [ "$logged" -ge "$((good + hs - 1))" ] || fail "$name: $((good + hs)) requests sent, the server logged $logged answers"
  [ "$((ok + hok))" -gt 0 ] || fail "$name: nothing answered"
done
# RSS over the hostile runs: start, max, end, and the growth from the first third of the samples to the last.
awk '$2 ~ /^hostile-/ {print $3}' "$out/rss.log" > "$out/rss-hostile.txt"
read -r r_start r_max r_end first last < <(awk '{v[NR] = $1} END {
  n = NR; if (n == 0) {print "0 0 0 0 0"; exit}
  t = int(n / 3); if (t < 1) t = 1; m = 0
  for (i = 1; i <= n; i++) if (v[i] > m) m = v[i]
  for (i = 1; i <= t; i++) a += v[i]; for (i = n - t + 1; i <= n; i++) b += v[i]
  printf "%.1f %.1f %.1f %.1f %.1f\n", v[1]/1024, m/1024, v[n]/1024, a/t/1024, b/t/1024 }' "$out/rss-hostile.txt")
growth=$(awk -v a="$first" -v b="$last" 'BEGIN {printf "%.1f", b - a}')
echo "server RSS over the hostile runs ($(wc -l < "$out/rss-hostile.txt") samples): start $r_start MB, max $r_max MB, end $r_end MB; mean of the last third − mean of the first third: $growth MB (limit $RSS_LIMIT_MB)"
awk -v g="$growth" -v l="$RSS_LIMIT_MB" 'BEGIN {exit !(g > l)}' && fail "RSS grew $growth MB during the hostile run"

# ------------------------------------------------------------------------------------- shutdown
echo "shutdown" > "$out/phase"
alive || fail "the server was gone before SIGTERM"
kill "$sampler_pid" 2>/dev/null || true; sampler_pid=
start=$(date +%s%N)
kill -TERM "$server_pid"
for _ in $(seq 50); do alive || break; sleep 0.1; done
if alive; then
  fail "the server did not exit within 5 s of SIGTERM"
  kill -KILL "$server_pid"
fi
rc=0; wait "$server_pid" || rc=$?
server_pid=
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "SIGTERM: the server exited with status $rc after $ms ms; its last line: $(tail -n 1 "$out/server.log")"
[ "$rc" -eq 0 ] || fail "the server exited $rc after SIGTERM"
echo "uptime at the end:$(uptime | sed 's/.*up [^,]*,[^,]*, *//; s/^/ /')"

echo
if [ ${#failures[@]} -eq 0 ]; then
  echo "load test: everything held"
else
  echo "load test: ${#failures[@]} failure(s):"; printf '  %s\n' "${failures[@]}"
  exit 1
fi
