#!/usr/bin/env bash
# What CI runs for the Python package (python/) and the Spark recipe (Scripts/spark/):
#   1. a virtual environment with `pip install ./python` and the test dependencies (pytest, pandas,
#      pyarrow, pyspark; from PyPI);
#   2. pytest python/ against the binary;
#   3. the Spark test (Spark local mode over 100,000 lines; needs Java 17), unless MEDIAPARSE_SKIP_SPARK=1.
#
# Usage: Scripts/ci-python.sh BINARY
#   BINARY: the mediaparse binary to test (e.g. .build/release/mediaparse or dist/mediaparse); it becomes
#   MEDIAPARSE_BINARY for the tests.
# Environment: MEDIAPARSE_CI_VENV (default .venv-ci-python in the repository; kept between runs, so pip
#   only checks what is installed), MEDIAPARSE_SKIP_SPARK=1 (skip step 3), MEDIAPARSE_SPARK_LINES
#   (lines of the Spark test, default 100000), PYTHON (default python3).
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1   # no __pycache__ in the source tree
cd "$(dirname "$0")/.."
repo=$PWD

if [ $# -lt 1 ]; then
    echo "usage: Scripts/ci-python.sh BINARY   (the mediaparse binary to test)" >&2
    exit 2
fi
binary=$(realpath "$1")
if [ ! -x "$binary" ]; then
    echo "ci-python.sh: $1 is not an executable file (build it: swift build -c release, or Scripts/build-static.sh)" >&2
    exit 2
fi
export MEDIAPARSE_BINARY=$binary

venv=${MEDIAPARSE_CI_VENV:-$repo/.venv-ci-python}
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    echo "== creating $venv"
    "$python" -m venv "$venv"
fi
echo "== pip install ./python and the test dependencies"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check pytest pandas pyarrow pyspark
# the package as a user installs it; a fresh copy each run (its version number does not change with the code)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
"$venv/bin/python" -m pip list --disable-pip-version-check 2>/dev/null | grep -Ei '^(mediaparse|pytest|pandas|pyarrow|pyspark) ' | tr -s ' ' | sed 's/^/   /'
java -version 2>&1 | head -1 | sed 's/^/   /' || true

echo "== pytest python/ (binary: $binary)"
# run from outside the source tree, so the installed package is what is imported
(cd "$repo/python/tests" && "$venv/bin/python" -m pytest -p no:cacheprovider -q "$repo/python/tests")

if [ "${MEDIAPARSE_SKIP_SPARK:-0}" = 1 ]; then
    echo "== Spark test skipped (MEDIAPARSE_SKIP_SPARK=1)"
    exit 0
fi
if ! command -v java >/dev/null; then
    echo "ci-python.sh: the Spark test needs Java 17 (apt-get install -y openjdk-17-jre-headless), or set MEDIAPARSE_SKIP_SPARK=1" >&2
    exit 1
fi
echo "== Spark test (local mode, ${MEDIAPARSE_SPARK_LINES:-100000} lines)"
started=$(date +%s)
(cd "$repo/Scripts/spark" && PYSPARK_PYTHON="$venv/bin/python" "$venv/bin/python" -m pytest -p no:cacheprovider -q -s "$repo/Scripts/spark/test_spark_job.py")
echo "== Spark test took $(( $(date +%s) - started )) s"
