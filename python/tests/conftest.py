"""Fixtures: the real mediaparse binary (MEDIAPARSE_BINARY, default .build/release/mediaparse of the repo)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import List, Sequence

import pytest

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "Benchmarks" / "en-US.txt"


def _binary_path() -> Path:
    env = os.environ.get("MEDIAPARSE_BINARY")
    return Path(env) if env else REPO / ".build" / "release" / "mediaparse"


@pytest.fixture(scope="session")
def binary() -> str:
    """The binary's path; waits up to 60 s for it (it may be being replaced), then fails."""
    path = _binary_path()
    for _ in range(60):
        if path.is_file() and os.access(path, os.X_OK):
            return str(path.resolve())
        time.sleep(1)
    pytest.fail(
        f"no mediaparse binary at {path}: build it (swift build -c release, or Scripts/build-static.sh) "
        f"or set MEDIAPARSE_BINARY"
    )


@pytest.fixture(autouse=True)
def _binary_env(binary: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parser() without binary= finds the binary under test."""
    monkeypatch.setenv("MEDIAPARSE_BINARY", binary)


def cli_lines(binary: str, data: bytes, args: Sequence[str] = ()) -> List[str]:
    """What the CLI itself prints for ``data`` (one JSON line per input line), split at \\n only."""
    out = subprocess.run([binary, *args], input=data, capture_output=True, timeout=600, check=True).stdout
    assert out.endswith(b"\n")
    return out[:-1].decode("utf-8").split("\n")


@pytest.fixture(scope="session")
def bench_lines() -> List[str]:
    lines = BENCH.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 500
    return lines
