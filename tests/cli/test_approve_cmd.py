"""``toolview approve`` against a real ``toolview serve``: it lists what waits across threads,
safely, and answers one call; a refused or forged answer is said and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import REPO, ToolviewServer

from toolview.contract import ToolWaiting
from toolview.remote.client import Publisher

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
HOSTILE = f"echo \x1b]0;pwned\x07\x1b[2J {SECRET} \u202edone"


def _approve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "toolview", "approve", *args]
    return subprocess.run(
        command, cwd=REPO, capture_output=True, text=True, timeout=60, check=False, env=env
    )


def _wait(url: str, thread: str, call: str, command: str) -> None:
    """A call waits in ``thread``, as a hook publishes it."""
    ask = ToolWaiting(tool_call_id=call, tool_name="Bash", args={"command": command})
    with Publisher(f"{url}/threads/{thread}", timeout=10.0) as publisher:
        publisher.publish([ask])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    """A tokenless server on loopback (it takes decisions), two threads with a waiting call."""
    with ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")]) as started:
        _wait(started.url, "codex-one", "call_a", HOSTILE)
        _wait(started.url, "claude-two", "toolu_b", "ls")
        yield started


def test_the_list_is_every_threads_waiting_call_and_nothing_reaches_the_terminal_raw(
    server: ToolviewServer,
) -> None:
    listed = _approve("--server", server.url)
    assert listed.returncode == 0, listed.stderr
    assert "codex-one call_a  Bash" in listed.stdout
    assert "claude-two toolu_b  Bash" in listed.stdout
    for raw in ("\x1b", "\x07", "\u202e", SECRET):
        assert raw not in listed.stdout


def test_an_allow_is_the_calls_decision_and_a_second_is_refused(server: ToolviewServer) -> None:
    allowed = _approve("codex-one", "call_a", "--allow", "--server", server.url)
    assert (allowed.returncode, allowed.stdout.split(" (")[0]) == (0, "allowed call_a in codex-one")
    receipt = httpx.get(f"{server.url}/api/threads/codex-one/calls/call_a/decision?timeout=0")
    assert receipt.json()["decision"]["decision"] == "allow"
    again = _approve("codex-one", "call_a", "--deny", "--server", server.url)
    assert again.returncode == 1 and "refused (409)" in again.stderr
    assert "call_a" not in _approve("--server", server.url).stdout


def test_a_deny_carries_its_message(server: ToolviewServer) -> None:
    denied = _approve(
        "claude-two", "toolu_b", "--deny", "--message", "not on a Friday", "--server", server.url
    )
    assert denied.returncode == 0
    receipt = httpx.get(f"{server.url}/api/threads/claude-two/calls/toolu_b/decision?timeout=0")
    assert receipt.json()["decision"]["message"] == "not on a Friday"


def test_a_hostile_call_id_stays_one_path_segment(server: ToolviewServer) -> None:
    """``../..`` in an id is quoted: the server reads the whole of it as the call's id (the
    decision route takes any characters), a call that does not wait — never another route."""
    answer = _approve("codex-one", "../../../api/waiting", "--allow", "--server", server.url)
    assert answer.returncode == 1
    assert "refused (409): call '../../../api/waiting' does not wait" in answer.stderr


def test_usage_is_refused_before_anything_is_sent() -> None:
    for args, said in [
        (("t", "c", "--server", "http://127.0.0.1:9"), "answer with THREAD CALL"),
        (("--allow", "--server", "http://127.0.0.1:9"), "answer with THREAD CALL"),
        (("--server", "file:///etc/passwd"), "want --server http"),
    ]:
        refused = _approve(*args)
        assert (refused.returncode, refused.stdout) == (2, "") and said in refused.stderr


def test_a_forged_token_is_refused_and_the_right_one_answers(tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text("the-real-token-0123456789abcdef\n")
    token.chmod(0o600)
    args = ["--port", "0", "--db", str(tmp_path / "log.db"), "--token-file", str(token)]
    with ToolviewServer.start(args) as server:
        headers = {"authorization": "Bearer the-real-token-0123456789abcdef"}
        thread = f"{server.url}/api/threads"
        assert httpx.post(thread, json={"id": "t"}, headers=headers).status_code in (200, 201)
        ask = json.dumps({"kind": "tool-waiting", "toolCallId": "c", "toolName": "Bash"})
        stored = httpx.post(
            f"{thread}/t/observations",
            content=ask + "\n",
            headers={**headers, "content-type": "application/x-ndjson"},
        )
        assert stored.status_code in (200, 201), stored.text
        forged = _approve("t", "c", "--allow", "--server", server.url, "--token", "forged")
        assert forged.returncode == 1 and "refused (401)" in forged.stderr
        right = _approve("--server", server.url, "--token", "the-real-token-0123456789abcdef")
        assert right.returncode == 0 and "t c  Bash" in right.stdout
