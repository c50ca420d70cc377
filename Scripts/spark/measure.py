#!/usr/bin/env python3
"""Rows per second per core: the Spark job in local[N] against the CLI with --jobs N, on the same lines.

  python Scripts/spark/measure.py BINARY [--lines 100000] [--cores 2] [--rounds 3]

The lines are those of the Spark test (Benchmarks/en-US.txt repeated and varied, with bad lines). The
rounds alternate: the CLI (`BINARY --jobs N < lines > /dev/null`, start-up included), then the job's run()
in a Spark session started once before (so the JVM's start is not counted; it is printed apart). Prints
each round and the median; rows/s per core = lines / seconds / N. The machine's load average is printed
beside each figure: on a shared machine, read the figures with it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def load() -> str:
    return open("/proc/loadavg").read().split()[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)

    import parse_column
    from test_spark_job import build_input

    work = Path(tempfile.mkdtemp(prefix="mediaparse-measure-"))
    source = work / "lines.txt"
    source.write_bytes(build_input(args.lines))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])  # workers import parse_column
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    from pyspark.sql import SparkSession

    started = time.monotonic()
    spark = (SparkSession.builder.master(f"local[{args.cores}]").appName("mediaparse measure")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    print(f"Spark session start: {time.monotonic() - started:.1f} s (not counted below)")
    parse_column.run(spark, str(source), str(work / "warm"), binary=binary, mode="overwrite")  # warm-up

    cli, job = [], []
    for round_ in range(1, args.rounds + 1):
        before = load()
        t = time.monotonic()
        with open(source, "rb") as stdin:
            subprocess.run([binary, "--jobs", str(args.cores)], stdin=stdin, stdout=subprocess.DEVNULL, check=True)
        cli.append(time.monotonic() - t)
        print(f"round {round_}: CLI --jobs {args.cores}: {cli[-1]:.1f} s (load {before} -> {load()})", flush=True)
        before = load()
        t = time.monotonic()
        parse_column.run(spark, str(source), str(work / "out"), binary=binary, mode="overwrite")
        job.append(time.monotonic() - t)
        print(f"round {round_}: Spark local[{args.cores}]: {job[-1]:.1f} s (load {before} -> {load()})", flush=True)
    spark.stop()
    for name, times in ((f"CLI --jobs {args.cores}", cli), (f"Spark local[{args.cores}]", job)):
        median = statistics.median(times)
        print(f"{name}: median {median:.1f} s for {args.lines} lines = {args.lines / median:,.0f} rows/s = "
              f"{args.lines / median / args.cores:,.0f} rows/s per core (best {args.lines / min(times) / args.cores:,.0f})")
    print(f"Spark / CLI (medians): {statistics.median(cli) / statistics.median(job):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
