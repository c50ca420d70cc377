"""The Parser against the real binary: results, batches equal to the CLI's output, bad lines, errors."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import List

import pytest

import mediaparse
from mediaparse import (
    BinaryNotFoundError,
    Parser,
    ParserBusyError,
    ParserClosedError,
    ProcessDiedError,
    StartError,
    UnsupportedLocaleError,
)

from conftest import cli_lines


def children_running(binary: str) -> List[int]:
    """Process ids of this process's live children that run ``binary``."""
    me = os.getpid()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            exe = os.readlink(f"/proc/{entry}/exe")
        except OSError:
            continue
        if int(fields[1]) == me and fields[0] != "Z" and os.path.realpath(exe) == os.path.realpath(binary):
            pids.append(int(entry))
    return pids


# -- results ----------------------------------------------------------------------------------------


def test_parse_gives_the_contract_result(binary: str) -> None:
    with Parser() as parser:
        result = parser.parse("play the newest episode of Stuff You Should Know at double speed")
        assert result["intent"] == "INPlayMediaIntent"
        assert result["locale"] == "en-US"
        assert result["mediaSearch"]["mediaName"] == "Stuff You Should Know"
        assert result["mediaSearch"]["sortOrder"] == "newest"
        assert result["playbackSpeed"] == 2
        assert parser.parse("pause")["command"] == "pause"
        assert parser.parse("what is the weather")["intent"] is None
        raw = parser.parse_raw("play Khalid")
    assert raw == cli_lines(binary, b"play Khalid\n")[0]


def test_locale_is_resolved_and_used(binary: str) -> None:
    with Parser(locale="de") as parser:
        assert parser.locale == "de-DE"
        result = parser.parse("spiel das neue Album von Herbert Grönemeyer")
    assert result["locale"] == "de-DE"
    assert result["mediaSearch"]["artistName"] == "Herbert Grönemeyer"
    assert result["mediaSearch"]["sortOrder"] == "newest"
    with Parser(locale="zh_CN") as parser:
        assert parser.parse("播放周杰伦的歌")["mediaSearch"]["artistName"] == "周杰伦"


def test_app_names_and_user_vocabulary(tmp_path: Path) -> None:
    with Parser() as plain, Parser(app_names=["ControlAudio"]) as app:
        assert "appName" not in plain.parse("play ControlAudio")
        assert app.parse("play ControlAudio")["appName"] == "ControlAudio"
    vocabulary = {"mediaPlaylistTitle": ["70s punk classics"]}
    path = tmp_path / "user.json"
    path.write_text(json.dumps(vocabulary))
    for source in (vocabulary, path, str(path)):
        with Parser(user_vocabulary=source) as parser:
            search = parser.parse("put on some '70s punk classics")["mediaSearch"]
        assert search == {"mediaName": "70s punk classics", "mediaType": "playlist"}, source
    with Parser() as parser:  # without it, a decade and a genre
        assert parser.parse("put on some '70s punk classics")["mediaSearch"]["genreNames"] == ["punk"]


def test_extra_args_reach_the_cli() -> None:
    with Parser(extra_args=["--alternatives", "2"]) as parser:
        assert "alternatives" in parser.parse("play Maybe Sometime by Special Disaster Team")
    with Parser(extra_args=["--jobs", "2"]) as parser:  # streaming works with threads as well
        assert parser.parse("pause")["command"] == "pause"
        assert [r["utterance"] for r in parser.parse_many(["a", "b", "c"])] == ["a", "b", "c"]


# -- batches: equal to the CLI's own output -----------------------------------------------------------


def test_thousands_of_lines_equal_the_cli_output(binary: str, bench_lines: List[str]) -> None:
    lines = []
    for round_ in range(6):  # about 5,000 lines, varied
        for line in bench_lines:
            lines.append(line if round_ % 2 == 0 else (line.upper() if round_ == 1 else line + " on Spotify"))
    expected = cli_lines(binary, ("\n".join(lines) + "\n").encode("utf-8"))
    assert len(expected) == len(lines) > 5000
    with Parser() as parser:
        pid = parser.pid
        got = list(parser.parse_many_raw(lines))
        assert got == expected
        # as dicts, and again through the same process
        assert [r["utterance"] for r in parser.parse_many(lines[:1000])] == lines[:1000]
        assert parser.pid == pid
        assert children_running(binary) == [pid]  # one process, not one per call


def test_single_parses_equal_the_cli_output(binary: str, bench_lines: List[str]) -> None:
    sample = bench_lines[::7]
    expected = cli_lines(binary, ("\n".join(sample) + "\n").encode("utf-8"), ["--locale", "en-US", "--app-name", "ControlAudio"])
    with Parser(app_names=["ControlAudio"]) as parser:
        assert [parser.parse_raw(line) for line in sample] == expected
        assert len(children_running(binary)) == 1


def test_a_batch_larger_than_the_pipe_buffers_does_not_deadlock(binary: str) -> None:
    # 3,000 lines of 12 KB: 36 MB in, far more than a pipe holds; each line is over the 2,000-character limit
    long_line = ("play " + "x" * 12_000)
    texts = [long_line if i % 3 else f"play song number {i}" for i in range(3000)]
    with Parser() as parser:
        results = list(parser.parse_many(texts))
    assert len(results) == 3000
    for i, result in enumerate(results):
        if i % 3:
            assert result["intent"] is None and "too long" in result["error"]
        else:
            assert result["utterance"] == f"play song number {i}"


# -- bad lines: each gets its own result, the stream goes on ------------------------------------------


def test_bad_lines_get_their_own_result_and_the_stream_stays_in_step(binary: str) -> None:
    good = ["play Khalid", "pause", "find jazz playlists"]
    bad = [
        "",  # empty line
        b"\xff\xfe play",  # not UTF-8
        "play \udcff\udcfe",  # surrogateescape'd bytes
        "play \ud800",  # a lone surrogate
        "play\x00Khalid",  # NUL
        "play Khalid\nplay Adele",  # a line break inside
        "pause\r",  # a carriage return at the end
        "a\r\nb\rc",  # CRLF and CR inside
        " ".join(["play"] * 70),  # over 64 words
        "x" * 20_000,  # over 16 KiB
        None,  # no text
        "\ufeffplay Khalid",  # a byte order mark (would be dropped as the first bytes of the input)
        "play \u2028 Khalid",  # a line separator: text for the CLI, and the output is split at \n only
    ]
    texts = []
    for i, b in enumerate(bad):
        texts += [b, good[i % 3]]
    with Parser() as parser:
        results = list(parser.parse_many(texts))
        one_by_one = [parser.parse(t) if t is not None else None for t in texts]
    assert len(results) == len(texts)
    expected_good = {g: json.loads(cli_lines(binary, (g + "\n").encode())[0]) for g in good}
    for i, b in enumerate(bad):
        assert results[2 * i + 1] == expected_good[good[i % 3]], b
    r = results[0::2]
    assert r[0] == {"intent": None, "locale": "en-US", "utterance": ""}
    for k in (1, 2, 3):
        assert r[k]["intent"] is None and "not valid UTF-8" in r[k]["error"], bad[k]
    assert r[4]["intent"] == "INPlayMediaIntent"
    assert r[5]["utterance"] == "play Khalid play Adele"
    assert r[6]["utterance"] == "pause" and r[6]["command"] == "pause"
    assert r[7]["utterance"] == "a b c"
    assert "70 words" in r[8]["error"]
    assert "too long" in r[9]["error"]
    assert r[10] == {"error": "no text (null); not parsed", "intent": None, "locale": "en-US", "utterance": None}
    assert r[11]["utterance"] == "\ufeffplay Khalid"
    assert r[12]["utterance"] == "play \u2028 Khalid"
    # parse() one by one gives the same results
    assert [x for x in one_by_one if x is not None] == [x for t, x in zip(texts, results) if t is not None]
    # invalid UTF-8 is answered as the CLI answers it
    assert json.loads(cli_lines(binary, b"\xff\xfe play\n")[0]) == r[1]


def test_parse_rejects_what_is_not_text() -> None:
    with Parser() as parser:
        with pytest.raises(TypeError, match="str or bytes"):
            parser.parse(42)  # type: ignore[arg-type]
        got = []
        with pytest.raises(TypeError, match="str or bytes"):
            for result in parser.parse_many(["pause", "play Khalid", 3.5, "stop"]):  # type: ignore[list-item]
                got.append(result["utterance"])
        assert got == ["pause", "play Khalid"]  # the results before the bad item came first
        assert parser.parse("next song")["command"] == "nextTrack"  # still in step


# -- parse_many: pipelining, early stop, errors of the iterable, busy ----------------------------------


def test_leaving_parse_many_early_keeps_the_parser_in_step(bench_lines: List[str]) -> None:
    with Parser() as parser:
        for i, result in enumerate(parser.parse_many(bench_lines * 5)):
            if i == 10:
                break  # thousands of lines may be in flight
        assert parser.parse("pause") == {
            "command": "pause", "intent": "MPRemoteCommand", "locale": "en-US", "score": 1, "utterance": "pause"
        }
        iterator = parser.parse_many(bench_lines)
        assert next(iterator)["utterance"] == bench_lines[0]
        iterator.close()
        assert parser.parse("play Khalid")["utterance"] == "play Khalid"


def test_an_error_of_the_iterable_comes_after_the_results_before_it() -> None:
    def texts():
        yield "pause"
        yield "play Khalid"
        raise RuntimeError("the source broke")

    with Parser() as parser:
        got = []
        with pytest.raises(RuntimeError, match="the source broke"):
            for result in parser.parse_many(texts()):
                got.append(result["utterance"])
        assert got == ["pause", "play Khalid"]
        assert parser.parse("stop")["command"] == "stop"


def test_parse_inside_parse_many_of_the_same_parser_is_refused() -> None:
    with Parser() as parser:
        iterator = parser.parse_many(["pause", "stop"])
        assert next(iterator)["command"] == "pause"
        with pytest.raises(ParserBusyError, match="second Parser"):
            parser.parse("play Khalid")
        assert next(iterator)["command"] == "stop"
        assert list(iterator) == []
        assert parser.parse("play Khalid")["intent"] == "INPlayMediaIntent"


def test_threads_sharing_a_parser_each_get_their_own_results(bench_lines: List[str]) -> None:
    errors: List[str] = []
    with Parser() as parser:

        def work(offset: int) -> None:
            for line in bench_lines[offset::4][:150]:
                got = parser.parse(line)["utterance"]
                if got != line.strip():
                    errors.append(f"{line!r} -> {got!r}")

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []


# -- errors that say what to do ----------------------------------------------------------------------


def test_binary_not_found_says_how_to_get_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(BinaryNotFoundError) as caught:
        Parser(binary="/nonexistent/mediaparse")
    message = str(caught.value)
    assert "/nonexistent/mediaparse" in message and "does not exist" in message
    assert "Scripts/build-static.sh" in message and "MEDIAPARSE_BINARY" in message and "binary=" in message

    monkeypatch.delenv("MEDIAPARSE_BINARY")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BinaryNotFoundError, match="MEDIAPARSE_BINARY is not set"):
        Parser()

    not_executable = tmp_path / "mediaparse-copy"
    not_executable.write_text("#!/bin/sh\n")
    monkeypatch.setenv("MEDIAPARSE_BINARY", str(not_executable))
    with pytest.raises(BinaryNotFoundError, match="not an executable file"):
        Parser()


def test_binary_found_on_path(binary: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "mediaparse").symlink_to(binary)
    monkeypatch.delenv("MEDIAPARSE_BINARY")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert mediaparse.find_binary() == str(tmp_path / "mediaparse")
    with Parser() as parser:
        assert parser.parse("pause")["command"] == "pause"
    monkeypatch.setenv("MEDIAPARSE_BINARY", "mediaparse")  # a command name in the variable: looked up on PATH
    assert mediaparse.find_binary() == str(tmp_path / "mediaparse")


def test_unsupported_locale_lists_the_supported_ones(binary: str) -> None:
    supported = mediaparse.supported_locales()
    assert {"en-US", "de-DE", "zh-TW", "pt-BR"} <= set(supported)
    with pytest.raises(UnsupportedLocaleError) as caught:
        Parser(locale="xx-YY")
    assert caught.value.locale == "xx-YY"
    assert caught.value.supported == supported
    assert "'xx-YY'" in str(caught.value) and "en-US, " in str(caught.value) and "zh-TW" in str(caught.value)
    assert children_running(binary) == []


def test_bad_vocabulary_file_and_bad_arguments_are_start_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{bad")
    with pytest.raises(StartError) as caught:
        Parser(user_vocabulary=bad)
    assert caught.value.returncode == 65
    assert str(bad) in str(caught.value) and "invalid JSON" in str(caught.value)
    with pytest.raises(StartError) as caught:
        Parser(extra_args=["--bogus"])
    assert caught.value.returncode == 64 and "--bogus" in str(caught.value)
    with pytest.raises(TypeError, match="list of strings"):
        Parser(app_names="ControlAudio")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one line per result"):
        Parser(extra_args=["--pretty"])


def test_a_binary_that_is_not_mediaparse_is_a_start_error(tmp_path: Path) -> None:
    echo = tmp_path / "echo-lines"
    echo.write_text("#!/bin/sh\nexec cat\n")  # answers the empty line with an empty line
    echo.chmod(0o755)
    with pytest.raises(StartError, match="is it the mediaparse binary"):
        Parser(binary=echo)
    with pytest.raises(StartError, match="exit status 0"):
        Parser(binary="/bin/true")


def test_a_dead_process_gives_a_clear_error_and_restart_recovers(binary: str) -> None:
    parser = Parser()
    try:
        assert parser.parse("pause")["command"] == "pause"
        os.kill(parser.pid, signal.SIGKILL)  # type: ignore[arg-type]
        with pytest.raises(ProcessDiedError, match="SIGKILL") as caught:
            parser.parse("play Khalid")
        assert caught.value.returncode == -signal.SIGKILL
        assert "restart()" in str(caught.value)
        with pytest.raises(ProcessDiedError):
            list(parser.parse_many(["stop"]))
        parser.restart()
        assert parser.parse("stop")["command"] == "stop"
    finally:
        parser.close()


def test_a_process_dying_in_the_middle_of_a_batch_raises_and_does_not_hang(bench_lines: List[str]) -> None:
    parser = Parser()
    got = 0
    started = time.monotonic()
    try:
        with pytest.raises(ProcessDiedError, match="SIGTERM"):
            for result in parser.parse_many(bench_lines * 50):
                got += 1
                if got == 100:
                    os.kill(parser.pid, signal.SIGTERM)  # type: ignore[arg-type]
    finally:
        parser.close()
    assert 100 <= got < len(bench_lines) * 50
    assert time.monotonic() - started < 60


def test_close_ends_the_process_and_later_calls_say_so(binary: str) -> None:
    with Parser() as parser:
        pid = parser.pid
        assert parser.parse("pause")["intent"] == "MPRemoteCommand"
    assert children_running(binary) == []
    with pytest.raises(ParserClosedError, match="closed"):
        parser.parse("pause")
    parser.close()  # twice is fine
    assert pid is not None and not Path(f"/proc/{pid}").exists()  # ended and reaped
