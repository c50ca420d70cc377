"""The Spark job in local mode against the CLI's own output.

Runs Scripts/spark/parse_column.py with `local[2]` over 100,000 lines built from Benchmarks/en-US.txt
(repeated and varied, with bad lines among them) and checks that every row's JSON is byte for byte what
`mediaparse` prints for the same line of the same file, and that the other columns agree with the JSON;
then a Parquet input with nulls, empty texts and extra columns, all kept.

Needs pyspark, pyarrow and Java 17; the binary is $MEDIAPARSE_BINARY (default .build/release/mediaparse).
MEDIAPARSE_SPARK_LINES changes the number of lines (default 100000).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyspark")

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
JOB = HERE / "parse_column.py"
LINES = int(os.environ.get("MEDIAPARSE_SPARK_LINES", "100000"))
FIELDS = ["intent", "mediaType", "mediaName", "artistName", "albumName", "genreNames", "appName", "command", "score", "error"]


@pytest.fixture(scope="module")
def binary() -> str:
    path = Path(os.environ.get("MEDIAPARSE_BINARY") or REPO / ".build" / "release" / "mediaparse")
    for _ in range(60):  # it may be being replaced for a moment
        if path.is_file() and os.access(path, os.X_OK):
            return str(path.resolve())
        time.sleep(1)
    pytest.fail(f"no mediaparse binary at {path}: build it or set MEDIAPARSE_BINARY")


def build_input(count: int) -> bytes:
    """``count`` lines: the benchmark utterances repeated with variations, and bad lines every 997th."""
    base = (REPO / "Benchmarks" / "en-US.txt").read_text(encoding="utf-8").splitlines()
    bad = [
        b"",
        b"\xff\xfe not UTF-8 " + b"\xc3",
        b"play\x00Khalid",
        b"play " + b"x" * 20000,
        b" ".join([b"play"] * 70),
        "\ufeffplay Khalid".encode(),
        b"   ",
        "播放周杰伦的歌 \u2028 in English mode".encode(),
    ]
    variants = [
        lambda s: s,
        lambda s: s.lower(),
        lambda s: s + " on Spotify",
        lambda s: "hey " + s,
        lambda s: s.upper(),
        lambda s: s + " in the kitchen",
    ]
    out: List[bytes] = []
    for i in range(count):
        if i % 997 == 500:
            out.append(bad[(i // 997) % len(bad)])
        else:
            line = base[i % len(base)]
            out.append(variants[(i // len(base)) % len(variants)](line).encode())
    # The file starts with a byte order mark (dropped by the CLI and by Spark's line reader alike); some
    # lines end with CRLF and some with a lone CR (both read a CR as a line end).
    data = bytearray(b"\xef\xbb\xbf")
    for i, line in enumerate(out):
        lone_cr = i % 103 == 9 and i + 1 < len(out) and out[i + 1] != b""  # a CR before an empty line is a CRLF
        data += line + (b"\r\n" if i % 101 == 7 else b"\r" if lone_cr else b"\n")
    return bytes(data)


def run_job(*args: str) -> float:
    env = dict(os.environ)
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    started = time.monotonic()
    proc = subprocess.run([sys.executable, str(JOB), *args], env=env, capture_output=True, text=True, timeout=1800)
    seconds = time.monotonic() - started
    assert proc.returncode == 0, f"the job failed ({proc.returncode}):\n{proc.stderr[-6000:]}"
    print(proc.stderr.strip().splitlines()[-1])
    return seconds


def check_columns(rows: List[dict]) -> None:
    """Each row's columns are the values in its own JSON."""
    for row in rows:
        result = json.loads(row["json"])
        search = result.get("mediaSearch") or {}
        for field in FIELDS:
            expected = result.get(field, search.get(field))
            if field == "score" and expected is not None:
                expected = float(expected)
            assert row[field] == expected, (field, row)


def test_text_input_every_row_equals_the_cli(binary: str, tmp_path: Path) -> None:
    data = build_input(LINES)
    source = tmp_path / "utterances.txt"
    source.write_bytes(data)
    cli = subprocess.run([binary], input=data, capture_output=True, check=True, timeout=1800).stdout
    expected = cli[:-1].decode("utf-8").split("\n")
    assert len(expected) == LINES  # the CLI's count of lines: one result each

    output = tmp_path / "out.parquet"
    seconds = run_job(str(source), str(output), "--master", "local[2]", "--binary", binary, "--partitions", "4")
    print(f"spark local[2]: {LINES} lines in {seconds:.1f} s (job wall time, JVM start included)")

    table = pq.read_table(output)
    assert table.num_rows == LINES
    assert table.column_names == ["row_index", "text", *FIELDS, "json"]
    assert table.schema.field("genreNames").type == pa.list_(pa.string())
    assert table.schema.field("score").type == pa.float64()
    rows = sorted(table.to_pylist(), key=lambda r: r["row_index"])
    assert len({r["row_index"] for r in rows}) == LINES  # unique; sorted by it, the rows are in input order
    mismatches = [(i, r["json"], e) for i, (r, e) in enumerate(zip(rows, expected)) if r["json"] != e]
    assert mismatches[:3] == [] and len(mismatches) == 0
    check_columns(rows)
    lines = re.split(rb"\r\n|\r|\n", data[3:])[:-1]  # the lines as the CLI reads them (after the BOM)
    assert [r["text"] for r in rows] == [line.decode("utf-8", "replace") for line in lines]
    # the bad lines are there, with their errors
    errors = [r for r in rows if r["error"] is not None]
    assert any("not valid UTF-8" in r["error"] for r in errors)
    assert any("too long" in r["error"] for r in errors)
    assert any(r["text"] == "" and r["intent"] is None for r in rows)
    assert sum(r["intent"] == "INPlayMediaIntent" for r in rows) > LINES // 4


def test_parquet_input_keeps_every_row_and_column(binary: str, tmp_path: Path) -> None:
    base = (REPO / "Benchmarks" / "en-US.txt").read_text(encoding="utf-8").splitlines()
    texts = [None if i % 50 == 3 else "" if i % 50 == 4 else "play Khalid\nnow" if i % 50 == 5 else base[i % len(base)]
             for i in range(3000)]
    source = tmp_path / "in.parquet"
    pq.write_table(pa.table({"id": list(range(3000)), "utterance": texts, "user": [f"u{i % 7}" for i in range(3000)]}),
                   source)
    output = tmp_path / "out.parquet"
    run_job(str(source), str(output), "--format", "parquet", "--column", "utterance", "--master", "local[2]",
            "--binary", binary, "--app-name", "ControlAudio", "--partitions", "3")
    rows = sorted(pq.read_table(output).to_pylist(), key=lambda r: r["id"])
    assert [r["id"] for r in rows] == list(range(3000))
    assert [r["utterance"] for r in rows] == texts and [r["user"] for r in rows] == [f"u{i % 7}" for i in range(3000)]
    sent = [t.replace("\n", " ") for t in texts if t is not None]
    cli = subprocess.run([binary, "--app-name", "ControlAudio"], input=("\n".join(sent) + "\n").encode(),
                         capture_output=True, check=True).stdout[:-1].decode().split("\n")
    assert [r["json"] for r in rows if r["utterance"] is not None] == cli
    nulls = [r for r in rows if r["utterance"] is None]
    assert len(nulls) == 60 and all(r["error"] == "no text (null); not parsed" and r["intent"] is None for r in nulls)
    check_columns(rows)
