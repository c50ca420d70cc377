"""The Parser: one long-lived ``mediaparse`` process, lines streamed through it.

The CLI reads one utterance a line on standard input and writes one JSON object a line on standard
output, in input order, flushed as input arrives (docs/CONTRACT.md). This module keeps exactly that
1:1 correspondence:

- every text sent is exactly one line: a trailing line end is removed and line breaks inside the text
  (``\\n``, ``\\r``, ``\\r\\n``, which the CLI would read as ends of lines) become a space;
- an empty text is an empty line, which the CLI answers with ``"intent": null``;
- a ``str`` that cannot be encoded as UTF-8 (lone surrogates, e.g. from ``surrogateescape``) is sent as
  the invalid bytes it stands for, and ``bytes`` are sent as they are: the CLI answers a line that is not
  UTF-8 with its own result carrying ``"error"``, and the stream goes on;
- ``None`` in :meth:`Parser.parse_many` gets a result with ``"error"`` made here, without a line sent;
- output is split at ``\\n`` only (the JSON may hold a raw U+2028 or U+0085).

A process that dies raises :class:`ProcessDiedError` with its exit status and the end of its standard
error; the parser cannot be used after that (:meth:`Parser.restart` starts a new process).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
from contextlib import contextmanager
from typing import (
    IO,
    Any,
    Dict,
    Generator,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Union,
)

__all__ = [
    "ENV_BINARY",
    "Parser",
    "MediaParseError",
    "BinaryNotFoundError",
    "UnsupportedLocaleError",
    "StartError",
    "ProcessDiedError",
    "ParserBusyError",
    "ParserClosedError",
    "find_binary",
    "supported_locales",
    "null_result",
]

#: The environment variable naming the binary when no ``binary=`` argument is given.
ENV_BINARY = "MEDIAPARSE_BINARY"

Text = Union[str, bytes, bytearray, memoryview]
PathLike = Union[str, "os.PathLike[str]"]

_BUILD_HINT = (
    "Build it in the MediaParse repository with `swift build -c release` (gives .build/release/mediaparse) "
    "or `Scripts/build-static.sh` (gives dist/mediaparse, which runs without a Swift toolchain; it needs "
    "the system ICU only), then pass Parser(binary='/path/to/mediaparse'), set "
    f"{ENV_BINARY}=/path/to/mediaparse, or put `mediaparse` on PATH."
)


class MediaParseError(Exception):
    """Base class of every error this package raises."""


class BinaryNotFoundError(MediaParseError, FileNotFoundError):
    """The ``mediaparse`` binary could not be found or is not executable."""


class UnsupportedLocaleError(MediaParseError, ValueError):
    """The CLI does not know the locale asked for; :attr:`supported` lists the ones it knows."""

    def __init__(self, message: str, locale: str, supported: Sequence[str]) -> None:
        super().__init__(message)
        self.locale = locale
        self.supported = list(supported)


class StartError(MediaParseError):
    """The process stopped before it parsed anything: bad arguments (exit status 64), a bad grammar or
    vocabulary file (65), or a binary that does not run."""

    def __init__(self, message: str, returncode: Optional[int] = None, stderr: str = "") -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class ProcessDiedError(MediaParseError):
    """The ``mediaparse`` process ended while lines were in flight."""

    def __init__(self, message: str, returncode: Optional[int] = None, stderr: str = "") -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class ParserBusyError(MediaParseError, RuntimeError):
    """The parser is in the middle of a :meth:`Parser.parse_many` iteration in this same thread."""


class ParserClosedError(MediaParseError, ValueError):
    """The parser was closed."""


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_binary(binary: Optional[PathLike] = None) -> str:
    """Return the path of the ``mediaparse`` binary to run.

    Looks at ``binary`` first (a path, or a command name looked up on ``PATH``), then the environment
    variable ``MEDIAPARSE_BINARY``, then ``mediaparse`` on ``PATH``.

    Raises:
        BinaryNotFoundError: nothing executable was found; the message says how to build the binary.
    """
    for value, origin in ((binary, "the binary= argument"), (os.environ.get(ENV_BINARY), ENV_BINARY)):
        if value is None or str(value) == "":
            continue
        candidate = os.path.expanduser(os.fspath(value))
        if os.sep in candidate or (os.altsep and os.altsep in candidate) or os.path.exists(candidate):
            if _executable(candidate):
                return os.path.abspath(candidate)
            why = "is not an executable file" if os.path.exists(candidate) else "does not exist"
            raise BinaryNotFoundError(f"mediaparse binary {candidate!r} (from {origin}) {why}. {_BUILD_HINT}")
        found = shutil.which(candidate)
        if found:
            return found
        raise BinaryNotFoundError(f"mediaparse binary {candidate!r} (from {origin}) is not on PATH. {_BUILD_HINT}")
    found = shutil.which("mediaparse")
    if found:
        return found
    raise BinaryNotFoundError(
        f"Cannot find the mediaparse binary: no binary= argument, {ENV_BINARY} is not set, and there is no "
        f"`mediaparse` on PATH. {_BUILD_HINT}"
    )


def supported_locales(binary: Optional[PathLike] = None) -> List[str]:
    """The locales the binary parses, from ``mediaparse locales --json``."""
    path = find_binary(binary)
    out = subprocess.run([path, "locales", "--json"], stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    if out.returncode != 0:
        raise StartError(
            f"`{path} locales --json` failed with exit status {out.returncode}: "
            f"{out.stderr.decode('utf-8', 'replace').strip()}",
            out.returncode,
            out.stderr.decode("utf-8", "replace"),
        )
    return [entry["locale"] for entry in json.loads(out.stdout)]


def _encode_line(text: Text) -> bytes:
    """One input line (with its ``\\n``) for ``text``; see the module docstring."""
    if isinstance(text, str):
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            try:
                data = text.encode("utf-8", "surrogateescape")  # the original bytes of a surrogateescape'd str
            except UnicodeEncodeError:
                data = text.encode("utf-8", "surrogatepass")  # other lone surrogates: invalid UTF-8 as well
    elif isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
    else:
        raise TypeError(f"mediaparse parses str or bytes, not {type(text).__name__} ({text!r:.60})")
    if b"\n" in data or b"\r" in data:
        data = data.rstrip(b"\r\n").replace(b"\r\n", b" ").replace(b"\r", b" ").replace(b"\n", b" ")
    return data + b"\n"


def null_result(locale: str) -> str:
    """The JSON line given for a missing text (``None``): ``"intent": null`` and an ``"error"``."""
    return json.dumps(
        {"error": "no text (null); not parsed", "intent": None, "locale": locale, "utterance": None},
        ensure_ascii=False,
        separators=(",", ":"),
        sort_keys=True,
    )


_SENT = object()  # a line was written; its result is to be read from the process
_END = object()  # the writer is done


class Parser:
    """A ``mediaparse`` process kept for the life of this object; texts stream through it.

    Args:
        locale: BCP 47 (``de-DE``) or ICU (``de_DE``); a language alone (``de``) picks its default region.
            The resolved locale is in :attr:`locale` after start.
        app_names: the calling app's names (``--app-name``), beside the built-in well-known apps.
        user_vocabulary: a user vocabulary: a path to the JSON file, or the object itself (a mapping of
            ``INVocabularyStringType`` names to lists of strings, most important first).
        binary: the ``mediaparse`` binary; default ``$MEDIAPARSE_BINARY``, then ``mediaparse`` on PATH.
        extra_args: further CLI arguments (``["--alternatives", "2"]``, ``["--jobs", "2"]`` …).
        global_vocabulary: path of an ``AppIntentVocabulary.plist`` (``--global-vocabulary``).
        areas, devices: the caller's rooms and players (``--area``, ``--device``).

    Raises:
        BinaryNotFoundError, UnsupportedLocaleError, StartError: at construction, when the process
            cannot start parsing (the process is started and asked for one empty line first).

    Use it as a context manager or call :meth:`close`. One parser serves one caller at a time: calls
    from several threads are serialised; calling :meth:`parse` while a :meth:`parse_many` iterator of
    the same parser is unfinished in the same thread raises :class:`ParserBusyError`.
    """

    def __init__(
        self,
        locale: str = "en-US",
        app_names: Iterable[str] = (),
        user_vocabulary: Optional[Union[PathLike, Mapping[str, Sequence[str]]]] = None,
        binary: Optional[PathLike] = None,
        extra_args: Iterable[str] = (),
        *,
        global_vocabulary: Optional[PathLike] = None,
        areas: Iterable[str] = (),
        devices: Iterable[str] = (),
    ) -> None:
        self._proc: "Optional[subprocess.Popen[bytes]]" = None
        self._closed = False
        self._dead = False
        self._lock = threading.Lock()
        self._owner: Optional[int] = None
        self._stderr_tail = bytearray()
        self._stderr_thread: Optional[threading.Thread] = None
        self.requested_locale = locale
        self.binary = find_binary(binary)
        args: List[str] = [self.binary, "--locale", locale]
        for name in _strings(app_names, "app_names"):
            args += ["--app-name", name]
        for name in _strings(areas, "areas"):
            args += ["--area", name]
        for name in _strings(devices, "devices"):
            args += ["--device", name]
        self._vocabulary_tempfile: Optional[str] = None
        if user_vocabulary is not None:
            if isinstance(user_vocabulary, Mapping):
                fd, tmp = tempfile.mkstemp(prefix="mediaparse-vocabulary-", suffix=".json")
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(dict(user_vocabulary), fh, ensure_ascii=False)
                self._vocabulary_tempfile = tmp
                args += ["--user-vocabulary", tmp]
            else:
                args += ["--user-vocabulary", os.fspath(user_vocabulary)]
        if global_vocabulary is not None:
            args += ["--global-vocabulary", os.fspath(global_vocabulary)]
        extra = _strings(extra_args, "extra_args")
        if "--pretty" in extra:
            raise ValueError("extra_args: --pretty prints a result over several lines; the Parser reads one line per result")
        args += extra
        self.args: List[str] = args
        #: The locale the CLI resolved (``de`` -> ``de-DE``); set by the start.
        self.locale: str = locale
        try:
            self._start()
        finally:
            if self._vocabulary_tempfile is not None:  # read at start; not needed after
                try:
                    os.unlink(self._vocabulary_tempfile)
                except OSError:
                    pass

    # -- process life -------------------------------------------------------------------------------

    def _start(self) -> None:
        try:
            proc = subprocess.Popen(
                self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        except OSError as error:
            raise StartError(f"cannot run {self.binary!r}: {error}. {_BUILD_HINT}") from error
        self._proc = proc
        self._dead = False
        self._closed = False
        self._stderr_tail = bytearray()
        self._stderr_thread = threading.Thread(
            target=self._drain_stderr, args=(proc.stderr,), name="mediaparse-stderr", daemon=True
        )
        self._stderr_thread.start()
        # The handshake: an empty line. It proves the process parses (or shows why not) and resolves the
        # locale; it also means no utterance is ever the first bytes of the input, where the CLI drops a BOM.
        line = b""
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(b"\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
        except OSError:
            pass
        if not line.endswith(b"\n"):
            returncode = self._reap()
            stderr = self._stderr_text()
            self._dead = True
            self._closed = True
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    stream.close()  # type: ignore[union-attr]
                except (OSError, ValueError):
                    pass
            if returncode == 64 and "unsupported locale" in stderr:
                try:
                    supported = supported_locales(self.binary)
                except Exception:  # the message above lists them too
                    supported = []
                listed = ", ".join(supported) if supported else "see `mediaparse locales`"
                raise UnsupportedLocaleError(
                    f"mediaparse does not support the locale {self.requested_locale!r}. Supported locales "
                    f"(`{self.binary} locales`): {listed}. A language alone (e.g. 'de') picks its default "
                    f"region; ICU form (de_DE) works too.",
                    self.requested_locale,
                    supported,
                )
            what = {
                64: "refused its arguments (exit status 64)",
                65: "could not read a grammar or vocabulary file (exit status 65)",
            }.get(returncode if returncode is not None else -1, f"stopped at start ({_status(returncode)})")
            raise StartError(
                f"mediaparse {what}: {stderr.strip() or '(nothing on stderr)'}\ncommand: {_shell(self.args)}",
                returncode,
                stderr,
            )
        try:
            self.locale = json.loads(line)["locale"]
        except (ValueError, KeyError, TypeError):
            self.close()
            raise StartError(
                f"{self.binary!r} did not answer an empty line with a mediaparse JSON result (got {line[:200]!r}); "
                f"is it the mediaparse binary? {_BUILD_HINT}"
            )

    def _drain_stderr(self, stream: IO[bytes]) -> None:
        try:
            while True:
                chunk = stream.read1(65536)  # type: ignore[attr-defined]
                if not chunk:
                    return
                self._stderr_tail += chunk
                if len(self._stderr_tail) > 65536:
                    del self._stderr_tail[:-65536]
        except (OSError, ValueError):
            return

    def _stderr_text(self) -> str:
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=5)
        return bytes(self._stderr_tail).decode("utf-8", "replace")

    def _reap(self, timeout: float = 10.0) -> Optional[int]:
        proc = self._proc
        if proc is None:
            return None
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait()

    def _raise_died(self) -> None:
        """The process ended (EOF or a broken pipe): raise the matching error."""
        if self._closed and not self._dead:
            raise ParserClosedError("this Parser was closed")
        self._dead = True
        returncode = self._reap()
        stderr = self._stderr_text()
        tail = stderr.strip()[-2000:]
        raise ProcessDiedError(
            f"the mediaparse process ({self.binary}) ended while parsing ({_status(returncode)})"
            + (f"; its standard error ends: {tail}" if tail else "; nothing on its standard error")
            + ". This Parser cannot parse any more: call restart() or create a new Parser.",
            returncode,
            stderr,
        )

    def _check_usable(self) -> None:
        if self._closed and not self._dead:
            raise ParserClosedError("this Parser was closed; create a new one (or call restart())")
        if self._dead:
            self._raise_died()

    @contextmanager
    def _exclusive(self) -> Iterator[None]:
        me = threading.get_ident()
        if self._owner == me:
            raise ParserBusyError(
                "this Parser is in the middle of a parse_many() iteration in this thread: finish or close() "
                "that iterator first, or use a second Parser"
            )
        with self._lock:
            self._owner = me
            try:
                yield
            finally:
                self._owner = None

    def restart(self) -> None:
        """Close the process (if any) and start a new one with the same arguments."""
        self.close()
        with self._exclusive():
            self._start()

    def close(self, timeout: float = 10.0) -> None:
        """End the process: close its input, let it finish, wait for it (killed after ``timeout`` s).

        Safe to call twice. A :meth:`parse_many` iterator still open is cut off (the process is killed).
        """
        proc = self._proc
        if proc is None or self._closed:
            self._closed = True
            return
        self._closed = True
        idle = self._lock.acquire(blocking=False)
        try:
            if idle:
                try:
                    assert proc.stdin is not None
                    proc.stdin.close()
                except OSError:
                    pass
                # Nobody reads: let what is still in flight drain so the process can finish.
                drainer = threading.Thread(target=_read_to_end, args=(proc.stdout,), daemon=True)
                drainer.start()
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                drainer.join(timeout=5)
            else:
                proc.kill()
                proc.wait()
                for stream in (proc.stdin,):
                    try:
                        stream.close()  # type: ignore[union-attr]
                    except OSError:
                        pass
            if self._stderr_thread is not None:
                self._stderr_thread.join(timeout=5)
            for stream in (proc.stdout, proc.stderr):
                try:
                    stream.close()  # type: ignore[union-attr]
                except (OSError, ValueError):
                    pass
        finally:
            if idle:
                self._lock.release()

    def __enter__(self) -> "Parser":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close(timeout=2)
        except Exception:
            pass

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("dead" if self._dead else "running")
        pid = self._proc.pid if self._proc is not None else None
        return f"<mediaparse.Parser locale={self.locale!r} binary={self.binary!r} pid={pid} {state}>"

    @property
    def pid(self) -> Optional[int]:
        """The process id of the ``mediaparse`` process."""
        return self._proc.pid if self._proc is not None else None

    # -- parsing ------------------------------------------------------------------------------------

    def parse_raw(self, text: Text) -> str:
        """Parse one utterance; return the CLI's JSON line for it (without the line end), byte for byte."""
        data = _encode_line(text)
        with self._exclusive():
            self._check_usable()
            proc = self._proc
            assert proc is not None and proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(data)
                proc.stdin.flush()
                line = proc.stdout.readline()
            except (OSError, ValueError):
                line = b""
            if not line.endswith(b"\n"):
                self._raise_died()
            return line[:-1].decode("utf-8", "replace")

    def parse(self, text: Text) -> Dict[str, Any]:
        """Parse one utterance into the contract's result (a dict; ``result["intent"]`` is always there).

        ``text`` is a ``str`` or UTF-8 ``bytes``; see the module docstring for line breaks and bad bytes.
        """
        result: Dict[str, Any] = json.loads(self.parse_raw(text))
        return result

    def parse_many_raw(self, texts: Iterable[Optional[Text]]) -> Generator[str, None, None]:
        """Parse many utterances, pipelined; yield the CLI's JSON line for each, in order.

        A writer thread feeds the process while results are read, so batches of any size do not deadlock
        on pipe buffers. ``None`` gives a result with ``"error"`` (no line sent). If ``texts`` raises, the
        results of the texts before are yielded first and then the exception is raised. Closing the
        iterator early (``break``) reads and drops the results still in flight, so the parser stays in step.
        """
        with self._exclusive():
            self._check_usable()
            proc = self._proc
            assert proc is not None and proc.stdin is not None and proc.stdout is not None
            stdout = proc.stdout
            pending: "queue.Queue[object]" = queue.Queue(maxsize=8192)
            stop = threading.Event()
            state: Dict[str, Any] = {"error": None, "broken": False}
            writer = threading.Thread(
                target=self._feed, args=(texts, proc.stdin, pending, stop, state), name="mediaparse-writer", daemon=True
            )
            writer.start()
            finished = False
            try:
                while True:
                    item = pending.get()
                    if item is _SENT:
                        try:
                            line = stdout.readline()
                        except (OSError, ValueError):
                            line = b""
                        if not line.endswith(b"\n"):
                            self._raise_died()
                        yield line[:-1].decode("utf-8", "replace")
                    elif item is _END:
                        break
                    else:
                        yield item  # type: ignore[misc]
                finished = True
                if state["broken"]:
                    self._raise_died()
                if state["error"] is not None:
                    raise state["error"]
            finally:
                if not finished:
                    stop.set()
                    # Read (and drop) the results of lines already sent, so later calls stay in step.
                    while True:
                        item = pending.get()
                        if item is _END:
                            break
                        if item is _SENT and not self._dead and not self._closed:
                            try:
                                line = stdout.readline()
                            except (OSError, ValueError):
                                line = b""
                            if not line.endswith(b"\n"):
                                self._dead = True
                writer.join()

    def parse_many(self, texts: Iterable[Optional[Text]]) -> Generator[Dict[str, Any], None, None]:
        """Parse many utterances, pipelined; yield one result dict per text, in order.

        See :meth:`parse_many_raw` (this is the same stream, each line decoded with ``json.loads``).
        """
        raw = self.parse_many_raw(texts)
        try:
            for line in raw:
                yield json.loads(line)
        finally:
            raw.close()

    def _feed(
        self,
        texts: Iterable[Optional[Text]],
        stdin: IO[bytes],
        pending: "queue.Queue[object]",
        stop: threading.Event,
        state: Dict[str, Any],
    ) -> None:
        null_line: Optional[str] = None
        try:
            for text in texts:
                if stop.is_set():
                    break
                if text is None:
                    if null_line is None:
                        null_line = null_result(self.locale)
                    pending.put(null_line)
                    continue
                data = _encode_line(text)
                try:
                    stdin.write(data)
                    stdin.flush()
                except (OSError, ValueError):
                    state["broken"] = True
                    break
                pending.put(_SENT)
        except BaseException as error:  # the iterable's own error, or a text of a wrong type
            state["error"] = error
        finally:
            pending.put(_END)


def _read_to_end(stream: Optional[IO[bytes]]) -> None:
    if stream is None:
        return
    try:
        while stream.read(65536):
            pass
    except (OSError, ValueError):
        pass


def _strings(values: Iterable[str], what: str) -> List[str]:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{what} takes a list of strings, not one string: use [{values!r}]")
    out = list(values)
    for value in out:
        if not isinstance(value, str):
            raise TypeError(f"{what} takes strings, not {type(value).__name__}")
    return out


def _status(returncode: Optional[int]) -> str:
    if returncode is None:
        return "exit status unknown"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


def _shell(args: Sequence[str]) -> str:
    import shlex

    return " ".join(shlex.quote(a) for a in args)
