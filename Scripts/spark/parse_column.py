#!/usr/bin/env python3
"""Parse a column of utterances with mediaparse on Apache Spark; write Parquet with the results.

Each partition streams its rows through ONE `mediaparse` process (the `mediaparse` Python package's
Parser, in `mapPartitions`), so the cost per row is the parse plus a pipe, with no process per row. Every
input row gives exactly one output row, carrying its row_index (text) or its own columns (Parquet), since
rows may be spread over partitions anew before the parse: a line that is not UTF-8 gets the
CLI's own result with "error", a null gets {"intent": null, "error": "no text (null); not parsed"}, an
empty line gets {"intent": null}; nothing is dropped.

Input:
  --format text     text files, one utterance a line (read as raw bytes, split at \\n, \\r\\n or \\r, as the
                    CLI splits them). Output columns: row_index (Spark's monotonically_increasing_id of the
                    line as read: unique, and increasing in input order, so sorting by it gives the input
                    order; within one partition as read it counts 0, 1, 2 …, and each such partition
                    starts at its own multiple of 2^33: for a file read as one partition, the line number), text (the line, decoded as UTF-8 with U+FFFD for bad bytes), then the
                    result columns.
  --format parquet  Parquet with a string or binary column (--column); every input column is kept, then
                    the result columns.

Result columns: intent, mediaType, mediaName, artistName, albumName, genreNames (array<string>), appName,
command, score (double), error, and json (the CLI's JSON line for the row, byte for byte as `mediaparse`
prints it; every other key of the result is in it).

The binary: --binary PATH on the driver is shipped to the executors with SparkContext.addFile (it must run
there: build it with Scripts/build-static.sh, which needs only the system ICU); --executor-binary PATH
uses a binary already installed at PATH on every executor instead. The `mediaparse` Python package is
shipped with addPyFile from the driver's installation, so executors need only Python.

  python Scripts/spark/parse_column.py utterances.txt out.parquet --master 'local[2]' --binary dist/mediaparse
  PYSPARK_PYTHON=$(which python) spark-submit --master 'local[2]' Scripts/spark/parse_column.py \
      utterances.txt out.parquet --binary dist/mediaparse

The driver's Python needs `pip install ./python pyspark`; executors need Python and the system ICU
(the package and the binary are shipped).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import stat
import sys
import tempfile
import time
import zipfile
from collections import deque
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from mediaparse.columns import MAIN_FIELDS as RESULT_FIELDS  # the package's flat columns, one list for both
from mediaparse.columns import slot


def result_schema_fields() -> List[Any]:
    """The result columns as Spark StructFields (their order is that of the output rows)."""
    from pyspark.sql.types import ArrayType, DoubleType, StringType, StructField

    fields = []
    for name in RESULT_FIELDS:
        if name == "genreNames":
            fields.append(StructField(name, ArrayType(StringType()), True))
        elif name == "score":
            fields.append(StructField(name, DoubleType(), True))
        else:
            fields.append(StructField(name, StringType(), True))
    fields.append(StructField("json", StringType(), False))
    return fields


def result_values(line: str) -> Tuple[Any, ...]:
    """The result columns' values for one JSON line."""
    result = json.loads(line)
    values: List[Any] = []
    for name in RESULT_FIELDS:
        value = slot(result, name)
        if name == "score" and value is not None:
            value = float(value)
        elif name == "genreNames" and value is not None:
            value = [str(v) for v in value]
        elif value is not None and not isinstance(value, str):
            value = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        values.append(value)
    values.append(line)
    return tuple(values)


_EXECUTOR_BINARY: Dict[str, str] = {}


def executor_binary(shipped_name: Optional[str], installed_path: Optional[str]) -> str:
    """The binary's path on this executor: the installed one, or the shipped file made executable."""
    if installed_path:
        return installed_path
    assert shipped_name is not None
    if shipped_name in _EXECUTOR_BINARY:
        return _EXECUTOR_BINARY[shipped_name]
    from pyspark import SparkFiles

    path = SparkFiles.get(shipped_name)
    if not os.access(path, os.X_OK):
        try:
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        except OSError:  # a read-only place: take a private copy
            copy = os.path.join(tempfile.mkdtemp(prefix="mediaparse-bin-"), shipped_name)
            shutil.copyfile(path, copy)
            os.chmod(copy, 0o755)
            path = copy
    _EXECUTOR_BINARY[shipped_name] = path
    return path


def parse_partition(
    rows: Iterable[Any],
    text_of: Any,
    options: Dict[str, Any],
) -> Iterator[Tuple[Any, ...]]:
    """Stream one partition's rows through one mediaparse process; yield (*row_out, *results) per row.

    ``text_of(row)`` gives (the text to parse, the row's own output values). The Parser's writer thread
    pulls the rows; each row's output values wait in a queue until its result comes back (same order).
    """
    from mediaparse import Parser

    rows = iter(rows)
    try:
        first = next(rows)
    except StopIteration:  # an empty partition starts no process
        return
    binary = executor_binary(options.get("shipped_name"), options.get("executor_binary"))
    waiting: deque = deque()

    def texts() -> Iterator[Any]:
        for row in itertools.chain((first,), rows):
            text, kept = text_of(row)
            waiting.append(kept)
            yield text

    with Parser(
        locale=options["locale"],
        app_names=options["app_names"],
        user_vocabulary=options.get("user_vocabulary"),
        binary=binary,
        # Spark runs a task per core already: one parsing thread per task, unless the caller said otherwise.
        extra_args=(options["extra_args"] if "--jobs" in options["extra_args"] else ["--jobs", "1"] + options["extra_args"]),
    ) as parser:
        for line in parser.parse_many_raw(texts()):
            yield waiting.popleft() + result_values(line)
    assert not waiting, "a row without a result"


def _text_line(row: Tuple[int, bytearray]) -> Tuple[bytes, Tuple[int, str]]:
    index, value = row
    data = bytes(value)
    return data, (index, data.decode("utf-8", "replace"))  # the CLI shows bad bytes as U+FFFD too


def _ship_package(sc: Any) -> None:
    """addPyFile a zip of the installed mediaparse package, so that executors need only Python."""
    import mediaparse

    package_dir = os.path.dirname(os.path.abspath(mediaparse.__file__))
    target = os.path.join(tempfile.mkdtemp(prefix="mediaparse-pyfiles-"), "mediaparse.zip")
    with zipfile.ZipFile(target, "w") as archive:
        for name in sorted(os.listdir(package_dir)):
            if name.endswith(".py") or name == "py.typed":
                archive.write(os.path.join(package_dir, name), os.path.join("mediaparse", name))
    sc.addPyFile(target)


def run(
    spark: Any,
    input_path: str,
    output_path: str,
    *,
    input_format: str = "text",
    column: str = "text",
    binary: Optional[str] = None,
    executor_binary_path: Optional[str] = None,
    locale: str = "en-US",
    app_names: Sequence[str] = (),
    user_vocabulary: Optional[Dict[str, List[str]]] = None,
    extra_args: Sequence[str] = (),
    partitions: Optional[int] = None,
    mode: str = "error",
) -> None:
    """Parse ``input_path`` and write the result to ``output_path`` (Parquet). See the module docstring."""
    from pyspark.sql.types import BinaryType, LongType, StringType, StructField, StructType

    import mediaparse

    sc = spark.sparkContext
    options: Dict[str, Any] = {
        "locale": locale,
        "app_names": list(app_names),
        "user_vocabulary": user_vocabulary,
        "extra_args": list(extra_args),
    }
    if executor_binary_path:
        options["executor_binary"] = executor_binary_path
    else:
        path = mediaparse.find_binary(binary)
        # Fail on the driver, before any task, when the binary or its options do not work.
        with mediaparse.Parser(locale=locale, app_names=app_names, user_vocabulary=user_vocabulary,
                               binary=path, extra_args=extra_args) as check:
            check.parse("play Khalid")
        sc.addFile(path)
        options["shipped_name"] = os.path.basename(path)
    _ship_package(sc)

    if input_format == "text":
        # spark.read.text keeps each line's bytes as they are (sc.textFile would decode them on the JVM,
        # turning bad bytes into U+FFFD, so the CLI would not see a line that is not UTF-8); as binary
        # they reach Python untouched.
        from pyspark.sql.functions import col, monotonically_increasing_id

        df = spark.read.text(input_path).select(
            monotonically_increasing_id().alias("row_index"), col("value").cast("binary").alias("value")
        )
        schema = StructType(
            [StructField("row_index", LongType(), False), StructField("text", StringType(), False)]
            + result_schema_fields()
        )
        text_of = _text_line
    elif input_format == "parquet":
        df = spark.read.parquet(input_path)
        if column not in df.columns:
            raise SystemExit(f"parse_column.py: no column {column!r} in {input_path} (columns: {df.columns})")
        kind = df.schema[column].dataType
        if not isinstance(kind, (StringType, BinaryType)):
            raise SystemExit(f"parse_column.py: column {column!r} is {kind.simpleString()}, not string or binary")
        clash = [f.name for f in result_schema_fields() if f.name in df.columns]
        if clash:
            raise SystemExit(f"parse_column.py: the input already has columns {clash}; rename them first")
        position = df.columns.index(column)
        schema = StructType(list(df.schema.fields) + result_schema_fields())

        def text_of(row: Tuple[Any, ...]) -> Tuple[Any, Tuple[Any, ...]]:
            value = row[position]
            return (bytes(value) if isinstance(value, (bytearray, memoryview)) else value), row

    else:
        raise SystemExit(f"parse_column.py: --format is text or parquet, not {input_format!r}")

    # Parsing is CPU work, and a file of a few MB is one partition when read: spread the rows over at least
    # Spark's parallelism (--partitions sets the number). This happens in the JVM, before Python sees a row
    # (Python touches each row once, in the parse); each row keeps its own index or columns.
    target = partitions or sc.defaultParallelism
    have = df.rdd.getNumPartitions()
    if have < target:
        df = df.repartition(target)
    elif partitions and have > partitions:
        df = df.coalesce(partitions)
    rdd = df.rdd
    parsed = rdd.mapPartitions(lambda rows: parse_partition(rows, text_of, options))
    spark.createDataFrame(parsed, schema).write.mode(mode).parquet(output_path)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", help="text file(s) or Parquet (any path Spark reads; globs work)")
    parser.add_argument("output", help="the Parquet folder to write")
    parser.add_argument("--format", choices=["text", "parquet"], default="text", dest="input_format")
    parser.add_argument("--column", default="text", help="the utterance column of a Parquet input (default: text)")
    parser.add_argument("--binary", help="the mediaparse binary on the driver, shipped to the executors "
                        "(default: $MEDIAPARSE_BINARY, then mediaparse on PATH)")
    parser.add_argument("--executor-binary", help="a binary installed at this path on every executor (nothing shipped)")
    parser.add_argument("--locale", default="en-US")
    parser.add_argument("--app-name", action="append", default=[], dest="app_names")
    parser.add_argument("--user-vocabulary", help="a user vocabulary JSON file (read on the driver, sent to the tasks)")
    parser.add_argument("--cli-arg", action="append", default=[], dest="extra_args",
                        help="a further mediaparse argument (repeat: --cli-arg=--area --cli-arg=Kitchen)")
    parser.add_argument("--partitions", type=int, help="partitions to parse in (default: Spark's parallelism)")
    parser.add_argument("--master", help="the Spark master when run with plain python (default local[*]); "
                        "spark-submit's --master otherwise")
    parser.add_argument("--mode", default="error", choices=["error", "overwrite"], help="if the output exists")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("mediaparse parse_column")
    if args.master:
        builder = builder.master(args.master)
    # Run with plain python (not spark-submit, which sets PYSPARK_GATEWAY_PORT) in local mode: let the
    # workers run this same Python, which has pyspark and mediaparse.
    plain = "PYSPARK_GATEWAY_PORT" not in os.environ
    if plain and (args.master or "local").startswith("local") and "PYSPARK_PYTHON" not in os.environ:
        os.environ["PYSPARK_PYTHON"] = sys.executable  # local workers: this Python, with mediaparse and pyspark
    spark = builder.getOrCreate()
    vocabulary = None
    if args.user_vocabulary:
        with open(args.user_vocabulary, encoding="utf-8") as fh:
            vocabulary = json.load(fh)
    started = time.monotonic()
    try:
        run(spark, args.input, args.output, input_format=args.input_format, column=args.column,
            binary=args.binary, executor_binary_path=args.executor_binary, locale=args.locale,
            app_names=args.app_names, user_vocabulary=vocabulary, extra_args=args.extra_args,
            partitions=args.partitions, mode=args.mode)
        rows = spark.read.parquet(args.output).count()
        seconds = time.monotonic() - started
        print(f"parse_column.py: {rows} rows -> {args.output} in {seconds:.1f} s "
              f"({rows / seconds:.0f} rows/s, master {spark.sparkContext.master})", file=sys.stderr)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
