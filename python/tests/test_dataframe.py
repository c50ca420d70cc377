"""The pandas helper (skipped when pandas is not installed)."""

from __future__ import annotations

import json
from typing import List

import pytest

from mediaparse import MAIN_FIELDS, Parser, add_parse_columns

from conftest import cli_lines

pd = pytest.importorskip("pandas")


def test_add_parse_columns_adds_intent_and_slots(binary: str, bench_lines: List[str]) -> None:
    texts = bench_lines[:300] + ["play Khalid in ControlAudio", None, float("nan"), b"\xffbad", ""]
    df = pd.DataFrame({"text": texts, "id": range(1000, 1000 + len(texts))}, index=[f"r{i}" for i in range(len(texts))])
    with Parser(app_names=["ControlAudio"]) as parser:
        out = add_parse_columns(df, "text", parser, json_column="json")
        assert parser.parse("pause")["command"] == "pause"  # the parser is left usable
    assert list(out.index) == list(df.index) and list(out["id"]) == list(df["id"])
    assert list(out.columns) == ["text", "id", *MAIN_FIELDS, "result", "json"]
    assert "intent" not in df.columns  # a copy; the input is unchanged

    good = bench_lines[:300] + ["play Khalid in ControlAudio"]
    expected = cli_lines(binary, ("\n".join(good) + "\n").encode(), ["--app-name", "ControlAudio"])
    assert list(out["json"][:301]) == expected
    for i, line in enumerate(expected):
        result = json.loads(line)
        row = out.iloc[i]
        assert row["result"] == result
        assert row["intent"] == result["intent"]
        assert row["mediaName"] == result.get("mediaSearch", {}).get("mediaName")
        assert row["genreNames"] == result.get("mediaSearch", {}).get("genreNames")
        assert row["command"] == result.get("command")
        assert row["score"] == result.get("score")

    khalid = out.loc["r300"]
    assert (khalid["intent"], khalid["mediaName"], khalid["appName"]) == ("INPlayMediaIntent", "Khalid", "ControlAudio")
    for label in ("r301", "r302"):  # None and NaN: no text
        assert out.loc[label, "intent"] is None and out.loc[label, "error"] == "no text (null); not parsed"
    assert "not valid UTF-8" in out.loc["r303", "error"]
    assert out.loc["r304", "result"] == {"intent": None, "locale": "en-US", "utterance": ""}


def test_add_parse_columns_makes_its_own_parser_and_takes_options() -> None:
    df = pd.DataFrame({"utterance": ["spiel Rammstein", "stopp"]})
    out = add_parse_columns(df, "utterance", locale="de", fields=["intent", "mediaName", "target.area"],
                            prefix="mp_", result_column=None)
    assert list(out.columns) == ["utterance", "mp_intent", "mp_mediaName", "mp_target.area"]
    assert list(out["mp_intent"]) == ["INPlayMediaIntent", "MPRemoteCommand"]
    assert list(out["mp_mediaName"]) == ["Rammstein", None]


def test_add_parse_columns_says_what_is_wrong() -> None:
    df = pd.DataFrame({"text": ["pause", 7], "intent": ["x", "y"]})
    with pytest.raises(ValueError, match="already has columns \\['intent'\\]"):
        add_parse_columns(df, "text")
    with pytest.raises(TypeError, match="holds 7 \\(of type int\\) at row 1"):
        add_parse_columns(df, "text", overwrite=True)
    with pytest.raises(KeyError, match="no column 'missing'"):
        add_parse_columns(df, "missing")
    out = add_parse_columns(df.iloc[:1], "text", overwrite=True)
    assert list(out["intent"]) == ["MPRemoteCommand"]
