"""``recording.asking.ask``: what a person sees and answers, and what a broken viewer decides.

The terminal prompt shows the call as every surface does (redacted) and lets
no escape sequence through; an empty or closed stdin denies. On the page, a
server that does not answer, answers late, or is not there denies the call with
``NO_ANSWER`` — toolview never allows a call by itself.
"""

from __future__ import annotations

import io
from pathlib import Path

from toolview_servers import ToolviewServer, free_port

import toolview
from toolview.recording.asking import NO_ANSWER, Answer, ask

HOSTILE = {"path": "a.txt\x1b]0;owned\x07\x1b[2J", "key": "sk-ant-api03-" + "A" * 80}


def _waiting(rec: toolview.Recorder) -> None:
    rec.call("c1", "delete\x1b[31m", HOSTILE)
    rec.waiting("c1")


def test_the_prompt_shows_the_call_redacted_and_without_escape_sequences() -> None:
    said = io.StringIO()
    with toolview.capture(live=False) as rec:
        _waiting(rec)
        answer = ask(rec, "c1", stdin=io.StringIO("y\n"), stderr=said)
        assert rec.thread.state(rec.thread.calls()[0]) == "pending"  # decided: it runs now
    assert answer == Answer(True, None)
    shown = said.getvalue()
    assert "\x1b" not in shown and "\x07" not in shown
    assert "sk-ant-api03" not in shown and "a.txt" in shown


def test_a_closed_stdin_denies() -> None:
    with toolview.capture(live=False) as rec:
        _waiting(rec)
        assert ask(rec, "c1", stdin=io.StringIO(""), stderr=io.StringIO()) == Answer(False, None)
    (decision,) = [e.decision for e in rec.thread.calls()]
    assert decision is not None and decision.decision == "deny"


def test_no_server_denies_and_says_why() -> None:
    said = io.StringIO()
    with toolview.capture(
        live=False, to=f"http://127.0.0.1:{free_port()}", publish_timeout=1
    ) as rec:
        _waiting(rec)
        assert ask(rec, "c1", timeout=2, stderr=said) == Answer(False, NO_ANSWER)
    assert "could not be shown on http://127.0.0.1:" in said.getvalue()


def test_a_call_the_server_never_saw_waits_for_nothing(tmp_path: Path) -> None:
    """The long poll for a call the server does not hold is a 404: denied at once."""
    with ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")]) as server:
        said = io.StringIO()
        with toolview.capture(live=False, to=server.url, thread_id="t") as rec:
            rec.call("c1", "delete", {})
            assert ask(rec, "nosuch", timeout=30, stderr=said) == Answer(False, NO_ANSWER)
        assert "no decision (404)" in said.getvalue()
