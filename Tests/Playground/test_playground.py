"""The playground of `mediaparse serve`, driven in headless Chromium as a person uses it.

A server and a browser are started; the browser opens `GET /`, a request is typed into the text box
(key events through the DevTools protocol, as a keyboard would), Ctrl+Enter is pressed, and the rendered
page is read back: the intent shown, and each slot's words highlighted in the utterance.

Needs: Chromium (`apt-get install chromium`), `pip install pytest websocket-client`, and the binary
(`MEDIAPARSE_BINARY`, default `.build/release/mediaparse`). `.ci/run` provides all three.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

websocket = pytest.importorskip("websocket")

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("MEDIAPARSE_BINARY", str(ROOT / ".build/release/mediaparse"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def read_line_matching(stream, pattern, seconds):
    """Reads lines of `stream` until one matches `pattern`; returns the match."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        line = stream.readline()
        if not line:
            time.sleep(0.05)
            continue
        found = re.search(pattern, line)
        if found:
            return found
    raise TimeoutError(f"no line matching {pattern!r} within {seconds} s")


def started(command, pattern, seconds):
    """Starts `command` and waits for a line of its standard error matching `pattern`; yields the match and
    stops the process afterwards."""
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        yield read_line_matching(process.stderr, pattern, seconds)
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def server():
    if not os.path.exists(BINARY):
        pytest.fail(f"no mediaparse binary at {BINARY}: build it (swift build -c release) or set MEDIAPARSE_BINARY")
    command = [BINARY, "serve", "--port", "0", "--locale", "en-US", "--locale", "de-DE"]
    for found in started(command, r"listening on (http://[\d.]+:\d+)", 300):
        yield found.group(1)


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.fail("Chromium is not installed (apt-get install chromium)")
    profile = tempfile.mkdtemp(prefix="mp-chromium-")
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"]
    try:
        for found in started(command, r"DevTools listening on ws://([\d.]+:\d+)/", 60):
            yield found.group(1)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


class Page:
    """One browser tab, spoken to through the DevTools protocol."""

    def __init__(self, devtools, url):
        request = urllib.request.Request(f"http://{devtools}/json/new?{urllib.parse.quote(url, safe='')}", method="PUT")
        target = json.load(urllib.request.urlopen(request, timeout=10))
        self.socket = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=30)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result.get("result", {}).get("value")

    def wait_for(self, expression, seconds=30):
        deadline = time.time() + seconds
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"the page never satisfied {expression}")

    def key(self, key, code, key_code, modifiers=0, text=None):
        down = dict(type="keyDown", key=key, code=code, windowsVirtualKeyCode=key_code, modifiers=modifiers)
        if text is not None:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", **down)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=key_code,
                  modifiers=modifiers)

    def close(self):
        self.socket.close()


def rendered(page):
    """What the page shows for each result: the intent and every highlighted slot with its words."""
    return page.evaluate("""
      Array.from(document.querySelectorAll('.result')).map(card => ({
        intent: card.querySelector('.intent') && card.querySelector('.intent').textContent,
        slots: Object.fromEntries(Array.from(card.querySelectorAll('mark')).map(m =>
                 [m.dataset.slot, m.firstChild.textContent])),
        rows: Object.fromEntries(Array.from(card.querySelectorAll('table.slots tr')).map(r =>
                 [r.cells[0].textContent, r.cells[1].textContent]))
      }))""")


def test_a_request_typed_into_the_playground_shows_its_intent_and_slots(server, browser):
    page = Page(browser, server + "/")
    try:
        page.call("Runtime.enable")
        page.wait_for("document.body && document.body.dataset.ready === 'true' && "
                      "document.querySelectorAll('#locale option').length === 2")
        page.evaluate("document.getElementById('text').focus()")
        for line_number, line in enumerate(["play thriller by michael jackson in the kitchen", "pause"]):
            if line_number:
                page.key("Enter", "Enter", 13, text="\r")  # a new line in the text box
            page.call("Input.insertText", text=line)  # as typed: the text box's own input events fire
        page.key("Enter", "Enter", 13, modifiers=2)  # Ctrl+Enter parses
        page.wait_for("document.querySelectorAll('.result').length === 2")
        first, second = rendered(page)
        assert first["intent"] == "INPlayMediaIntent"
        # Highlights are keyed as the result's spans are.
        assert first["slots"] == {"mediaName": "thriller", "artistName": "michael jackson", "target.area": "kitchen"}
        assert first["rows"]["mediaSearch.artistName"] == "michael jackson"
        assert first["rows"]["target.area"] == "kitchen"
        assert second["intent"] == "MPRemoteCommand"
        assert second["rows"]["command"] == "pause"
        # The explanation and the other readings are there to unfold.
        assert page.evaluate("document.querySelector('.result details.explain code').textContent")
        assert page.evaluate("document.querySelectorAll('.result:first-child ol.alternatives li').length") >= 1
    finally:
        page.close()


def test_another_locale_is_parsed_in_that_language(server, browser):
    page = Page(browser, server + "/?locale=de-DE&text=" + urllib.parse.quote("spiel Musik von Herbert Grönemeyer"))
    try:
        page.wait_for("document.querySelectorAll('.result').length === 1")
        (result,) = rendered(page)
        assert result["intent"] == "INPlayMediaIntent"
        assert result["slots"].get("artistName") == "Herbert Grönemeyer"
        assert page.evaluate("document.getElementById('locale').value") == "de-DE"
    finally:
        page.close()


def test_an_error_of_the_server_is_shown_not_swallowed(server, browser):
    page = Page(browser, server + "/")
    try:
        page.wait_for("document.body && document.body.dataset.ready === 'true'")
        # A text over the server's 2,000-character limit: the server answers 413 with a message.
        page.evaluate("document.getElementById('text').value = 'a '.repeat(1500)")
        page.evaluate("document.getElementById('parse').click()")
        message = page.wait_for("document.querySelector('.error') && document.querySelector('.error').textContent")
        assert "2000" in message
    finally:
        page.close()
