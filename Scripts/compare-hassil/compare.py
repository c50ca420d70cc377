#!/usr/bin/env python3
"""Side-by-side speed of MediaParse and Home Assistant's hassil on the same utterances, in one run.

Not part of the tests. See README.md next to this file.

    python3 Scripts/compare-hassil/compare.py [--mediaparse PATH] [--utterances FILE] [--iterations N]

By default it creates (once) a virtual environment in .venv-hassil/ at the package root, installs
requirements.txt there, and re-runs itself with that environment's Python (--no-venv uses the current one).

Measured, one after the other (never at the same time), on the same utterance file:
  1. library rate, one thread: hassil in this process (recognize_best, as Home Assistant calls it), one
     warm-up pass then N timed passes, median; MediaParse through `mediaparse bench --json` (same file,
     same N, one warm-up pass, median);
  2. end to end as a process over the file: `mediaparse` reading it on stdin, and a Python process that
     loads hassil and the intents and then recognises each line and prints one JSON line;
  3. start-up: in-process loading (hassil: import, intents JSON, template parsing; MediaParse: grammar
     compile, from `bench`) and a cold process answering one utterance;
  4. how many utterances each recognised as some intent (informative only: the grammars differ).
"""

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
DEFAULT_VENV = os.path.join(ROOT, ".venv-hassil")

# What Home Assistant supplies at run time from its registries: the areas, floors and entity names of a
# small home with a few media players. The satellite that heard the request is in the living room
# (Home Assistant puts the device's area into the intent context), which the area-less sentences
# ("pause", "play {search_query}", "next track", "set the volume to 30") require.
AREAS = ["Living Room", "Kitchen", "Bedroom", "Office", "Bathroom", "Garage"]
FLOORS = ["Ground Floor", "First Floor"]
MEDIA_PLAYERS = ["TV", "Living Room TV", "Living Room Speaker", "Kitchen Speaker", "Bedroom Speaker",
                 "Office Speaker", "Sonos", "Apple TV", "Chromecast"]
OTHER_ENTITIES = [("Ceiling Light", "light"), ("Kitchen Light", "light"), ("Fan", "fan"),
                  ("Front Door", "lock"), ("Thermostat", "climate")]
SATELLITE_AREA = "Living Room"


# --------------------------------------------------------------------------------------------------
# Environment

def ensure_venv(args):
    """Re-run this script with the venv's Python, creating the venv and installing the pins if needed."""
    venv = os.path.abspath(args.venv)
    python = os.path.join(venv, "bin", "python")
    if os.path.abspath(sys.prefix) == venv:
        return
    with open(REQUIREMENTS, "rb") as f:
        want = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(venv, ".requirements.sha256")
    have = open(stamp).read().strip() if os.path.exists(stamp) else None
    if not os.path.exists(python):
        print(f"creating {venv}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    if have != want:
        print(f"installing {REQUIREMENTS} into {venv}", file=sys.stderr)
        subprocess.run([python, "-m", "pip", "install", "-q", "-r", REQUIREMENTS], check=True)
        with open(stamp, "w") as f:
            f.write(want + "\n")
    os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])


def versions():
    from importlib.metadata import version
    return {"hassil": version("hassil"), "home-assistant-intents": version("home-assistant-intents")}


# --------------------------------------------------------------------------------------------------
# hassil

def load_hassil():
    """Import hassil, load the English intents and parse every template. Returns (recognise, timings)."""
    t0 = time.perf_counter()
    from hassil import Intents, TextSlotList, recognize_best
    import home_assistant_intents
    t1 = time.perf_counter()
    intents = Intents.from_dict(home_assistant_intents.get_intents("en"))
    t2 = time.perf_counter()
    for intent in intents.intents.values():  # templates are parsed lazily on first use; do it now
        for data in intent.data:
            _ = data.sentences
    t3 = time.perf_counter()

    def tuples(names):
        return TextSlotList.from_tuples(names, allow_template=False)

    slot_lists = {
        "area": tuples([(a, a, {"area": a}) for a in AREAS]),
        "floor": tuples([(f, f, {"floor": f}) for f in FLOORS]),
        "name": tuples([(n, n, {"domain": "media_player"}) for n in MEDIA_PLAYERS]
                       + [(n, n, {"domain": d}) for n, d in OTHER_ENTITIES]),
    }
    context = {"area": {"value": SATELLITE_AREA, "text": SATELLITE_AREA}}

    def recognise(text):
        # As Home Assistant's default conversation agent calls it (strict pass).
        return recognize_best(text, intents, slot_lists=slot_lists, intent_context=context, language="en",
                              best_metadata_key="hass_custom_sentence", best_slot_name="name")

    return recognise, {"import": t1 - t0, "load": t2 - t1, "parse_templates": t3 - t2}


def result_json(text, result):
    if result is None:
        return {"utterance": text, "intent": None}
    return {"utterance": text, "intent": result.intent.name,
            "slots": {name: e.value for name, e in result.entities.items()}}


def hassil_cli():
    """Internal mode: the hassil 'CLI', one utterance a line in, one JSON object a line out."""
    recognise, _ = load_hassil()
    out = sys.stdout
    for line in sys.stdin:
        text = line.rstrip("\n")
        out.write(json.dumps(result_json(text, recognise(text)), ensure_ascii=False, default=str) + "\n")
    out.flush()


def hassil_library(utterances, iterations):
    recognise, timings = load_hassil()
    t = time.perf_counter()
    recognise(utterances[0])
    timings["first_utterance"] = time.perf_counter() - t
    recognised = [recognise(u) for u in utterances]  # warm-up pass
    rates, latencies = [], []
    for _ in range(iterations):
        total = 0.0
        for u in utterances:
            s = time.perf_counter()
            recognise(u)
            d = time.perf_counter() - s
            latencies.append(d)
            total += d
        rates.append(len(utterances) / total)
    latencies.sort()
    return {
        "rate": statistics.median(rates),
        "rates": rates,
        "p50": latencies[len(latencies) // 2],
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "startup": timings,
        "intents": Counter(r.intent.name if r else None for r in recognised),
    }


# --------------------------------------------------------------------------------------------------
# Processes

def timed_run(command, input_path):
    with open(input_path, "rb") as stdin:
        t = time.perf_counter()
        done = subprocess.run(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - t
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}")
    return elapsed, done.stdout.decode("utf-8", errors="replace").splitlines()


def display(path):
    relative = os.path.relpath(path, ROOT)
    return path if relative.startswith("..") else relative


def intent_names(lines):
    return [json.loads(line).get("intent") for line in lines]


def mediaparse_bench(mediaparse, utterances_path, iterations):
    command = [mediaparse, "bench", "--utterances", utterances_path, "--iterations", str(iterations),
               "--no-vocabulary", "--no-cli", "--json"]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}")
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


# --------------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mediaparse", default=os.path.join(ROOT, ".build", "release", "mediaparse"),
                        help="the mediaparse executable, a release build (default: .build/release/mediaparse)")
    parser.add_argument("--utterances", default=os.path.join(ROOT, "Benchmarks", "en-US.txt"),
                        help="utterances, one a line (default: Benchmarks/en-US.txt)")
    parser.add_argument("--iterations", type=int, default=5, help="timed passes for the library rates (median)")
    parser.add_argument("--cli-repeat", type=int, default=1,
                        help="the end-to-end input is the utterance file this many times (default 1)")
    parser.add_argument("--startup-runs", type=int, default=3, help="cold processes per side for start-up (median)")
    parser.add_argument("--venv", default=DEFAULT_VENV, help="virtual environment to create or reuse")
    parser.add_argument("--no-venv", action="store_true", help="use this Python (hassil already installed)")
    parser.add_argument("--json-out", help="also write every figure to this JSON file")
    parser.add_argument("--hassil-cli", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.hassil_cli:
        return hassil_cli()
    if not args.no_venv:
        ensure_venv(args)

    mediaparse = os.path.abspath(args.mediaparse)
    if not os.access(mediaparse, os.X_OK):
        sys.exit(f"no executable at {mediaparse}: run `swift build -c release` first, or give --mediaparse PATH")
    utterances_path = os.path.abspath(args.utterances)
    with open(utterances_path, encoding="utf-8") as f:
        utterances = [line.rstrip("\n") for line in f if line.strip()]
    me = [sys.executable, os.path.abspath(__file__), "--hassil-cli"]

    def log(message):
        print(message, file=sys.stderr, flush=True)

    load_before = os.getloadavg()
    versions_ = versions()
    log(f"{len(utterances)} utterances from {utterances_path}; hassil {versions_['hassil']}, "
        f"home-assistant-intents {versions_['home-assistant-intents']}; {os.cpu_count()} cores, "
        f"load average {load_before[0]:.2f}")

    with tempfile.TemporaryDirectory() as tmp:
        cli_input = os.path.join(tmp, "input.txt")
        with open(cli_input, "w", encoding="utf-8") as f:
            f.write("\n".join(utterances * args.cli_repeat) + "\n")
        one_input = os.path.join(tmp, "one.txt")
        with open(one_input, "w", encoding="utf-8") as f:
            f.write("pause the music\n")

        log("MediaParse library (mediaparse bench) …")
        bench = mediaparse_bench(mediaparse, utterances_path, args.iterations)
        log(f"hassil library ({args.iterations + 1} passes of {len(utterances)}) …")
        hassil = hassil_library(utterances, args.iterations)

        log("end to end …")
        mp_cli_time, mp_out = timed_run([mediaparse, "--locale", "en-US"], cli_input)
        ha_cli_time, ha_out = timed_run(me, cli_input)

        log("cold start-up …")
        mp_cold = statistics.median(timed_run([mediaparse, "--locale", "en-US"], one_input)[0]
                                    for _ in range(args.startup_runs))
        ha_cold = statistics.median(timed_run(me, one_input)[0] for _ in range(args.startup_runs))
    load_after = os.getloadavg()

    n_lines = len(utterances) * args.cli_repeat
    mp_intents = intent_names(mp_out)[:len(utterances)]
    ha_intents = intent_names(ha_out)[:len(utterances)]
    assert len(mp_intents) == len(ha_intents) == len(utterances), "one output line per input line expected"
    mp_hit = [i is not None for i in mp_intents]
    ha_hit = [i is not None for i in ha_intents]
    ha_in_process = sum(n for name, n in hassil["intents"].items() if name is not None)

    ha_start = hassil["startup"]
    ha_load = ha_start["import"] + ha_start["load"] + ha_start["parse_templates"]
    rows = [
        ("parse rate, library, 1 thread (utt/s)", bench["parseRate"], hassil["rate"], "rate"),
        ("latency p50 (ms)", bench["latencyP50"] * 1e3, hassil["p50"] * 1e3, "time"),
        ("latency p99 (ms)", bench["latencyP99"] * 1e3, hassil["p99"] * 1e3, "time"),
        (f"end to end, process over {n_lines} lines (lines/s)", n_lines / mp_cli_time, n_lines / ha_cli_time, "rate"),
        ("end to end, wall time (s)", mp_cli_time, ha_cli_time, "time"),
        ("start-up in process: load grammar/intents (ms)", bench["startup"] * 1e3, ha_load * 1e3, "time"),
        ("start-up, cold process answering 1 line (ms)", mp_cold * 1e3, ha_cold * 1e3, "time"),
    ]

    def fmt(v):
        return f"{v:,.0f}" if v >= 100 else f"{v:,.2f}" if v < 10 else f"{v:,.1f}"

    width = max(len(r[0]) for r in rows) + 2
    print(f"MediaParse vs hassil {versions_['hassil']} + home-assistant-intents "
          f"{versions_['home-assistant-intents']} (en), {len(utterances)} utterances from "
          f"{display(utterances_path)}")
    print(f"{platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{args.iterations} timed passes (median); load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after")
    print()
    # The ratio is always MediaParse's speed over hassil's: rate / rate, or hassil's time / MediaParse's.
    print(f"{'':<{width}}{'MediaParse':>12}{'hassil':>12}   ratio MediaParse/hassil (speed)")
    for name, mp, ha, kind in rows:
        ratio = mp / ha if kind == "rate" else ha / mp
        who = "MediaParse faster" if ratio >= 1 else "hassil faster"
        print(f"{name:<{width}}{fmt(mp):>12}{fmt(ha):>12}   {ratio:,.2f} ({who})")
    print()
    print(f"hassil start-up in process: import {ha_start['import'] * 1e3:.0f} ms, intents JSON "
          f"{ha_start['load'] * 1e3:.0f} ms, template parsing {ha_start['parse_templates'] * 1e3:.0f} ms; "
          f"first utterance after that {ha_start['first_utterance'] * 1e3:.0f} ms")
    print()
    print("recognised as some intent (informative: the grammars differ)")
    print(f"  MediaParse {sum(mp_hit)} / {len(utterances)}, hassil {sum(ha_hit)} / {len(utterances)} "
          f"(in process: {ha_in_process}); both {sum(a and b for a, b in zip(mp_hit, ha_hit))}, "
          f"MediaParse only {sum(a and not b for a, b in zip(mp_hit, ha_hit))}, "
          f"hassil only {sum(b and not a for a, b in zip(mp_hit, ha_hit))}, "
          f"neither {sum(not a and not b for a, b in zip(mp_hit, ha_hit))}")
    media = sum(1 for i in ha_intents if i and (i.startswith("HassMedia") or i.startswith("HassSetVolume")))
    print(f"  hassil media intents (HassMedia*, HassSetVolume*): {media}; "
          f"HassMediaSearchAndPlay's {{search_query}} is a wildcard, so it also takes \"play chess\"")
    top = lambda c: ", ".join(f"{k} {v}" for k, v in c.most_common() if k is not None)
    print(f"  MediaParse: {top(Counter(mp_intents))}")
    print(f"  hassil: {top(Counter(ha_intents))}")

    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"versions": versions_, "utterances": utterances_path, "count": len(utterances),
                       "iterations": args.iterations, "cores": os.cpu_count(),
                       "loadavg": [load_before, load_after], "mediaparse_bench": bench,
                       "hassil": {k: v for k, v in hassil.items() if k != "intents"},
                       "cli": {"lines": n_lines, "mediaparse_s": mp_cli_time, "hassil_s": ha_cli_time},
                       "cold_start_s": {"mediaparse": mp_cold, "hassil": ha_cold},
                       "recognised": {"mediaparse": sum(mp_hit), "hassil": sum(ha_hit)}}, f, indent=2)


if __name__ == "__main__":
    main()
