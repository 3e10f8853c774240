"""``toolview hook claude-code`` against a real ``toolview serve``: it waits, a decision answers.

The hook runs as Claude Code runs it: a process, the hook's JSON on stdin,
the decision JSON on stdout. Without a decision (no server, the timeout) it
prints nothing, so Claude Code's own prompt decides.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import REPO, ToolviewServer, free_port

SESSION = "0b6e7f40-2c55-4c8e-8d0f-6f3e1d2c3b4a"
ARGS = {"command": "echo hi > out.txt", "description": "write"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    """A tokenless server on loopback (it takes decisions), its own log."""
    db = tmp_path_factory.mktemp("hook") / "threads.db"
    with ToolviewServer.start(["--port", "0", "--db", str(db)]) as started:
        yield started


def _hook(url: str, transcript: Path, *extra: str) -> subprocess.Popen[bytes]:
    ask = {
        "session_id": SESSION,
        "transcript_path": str(transcript),
        "cwd": str(transcript.parent),
        "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": ARGS,
    }
    command = [sys.executable, "-m", "toolview", "hook", "claude-code", "--to", url, *extra]
    hook = subprocess.Popen(
        command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert hook.stdin is not None
    hook.stdin.write(json.dumps(ask).encode())
    hook.stdin.close()
    return hook


def _transcript(tmp_path: Path, call: str) -> Path:
    use = {"type": "tool_use", "id": call, "name": "Bash", "input": ARGS}
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text(json.dumps({"type": "assistant", "message": {"content": [use]}}) + "\n")
    return path


def _finish(hook: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """Its stdout and stderr once it exited (its stdin is closed already)."""
    hook.wait(timeout=60)
    assert hook.stdout is not None and hook.stderr is not None
    return hook.stdout.read(), hook.stderr.read()


def _waits(hook: subprocess.Popen[bytes]) -> str:
    """Block until the hook says the call waits (its stderr line): the event, not a sleep."""
    assert hook.stderr is not None
    return hook.stderr.readline().decode()


@pytest.mark.parametrize(
    ("body", "decided"),
    [
        ({"decision": "allow"}, {"behavior": "allow"}),
        (
            {"decision": "deny", "message": "not on a Friday"},
            {"behavior": "deny", "message": "not on a Friday"},
        ),
    ],
)
def test_a_decision_posted_to_the_server_is_the_hooks_answer(
    server: ToolviewServer, tmp_path: Path, body: dict[str, str], decided: dict[str, str]
) -> None:
    call = f"toolu_{body['decision']}"
    hook = _hook(server.url, _transcript(tmp_path, call))
    assert f"call {call} waits" in _waits(hook)
    thread = f"{server.url}/api/threads/claude-{SESSION}"
    waiting = httpx.get(f"{thread}/waiting").json()["waiting"]
    assert [(w["toolCallId"], w["args"]) for w in waiting] == [(call, ARGS)]
    assert httpx.post(f"{thread}/calls/{call}/decision", json=body).status_code == 201
    out, _ = _finish(hook)
    assert hook.returncode == 0
    assert json.loads(out)["hookSpecificOutput"] == {
        "hookEventName": "PermissionRequest",
        "decision": decided,
    }


def test_no_server_decides_nothing(tmp_path: Path) -> None:
    hook = _hook(f"http://127.0.0.1:{free_port()}", _transcript(tmp_path, "toolu_x"))
    out, err = _finish(hook)
    assert (hook.returncode, out) == (0, b"")
    assert b"Claude Code asks" in err


def test_no_decision_in_time_decides_nothing(server: ToolviewServer, tmp_path: Path) -> None:
    hook = _hook(server.url, _transcript(tmp_path, "toolu_late"), "--timeout", "1")
    out, err = _finish(hook)
    assert (hook.returncode, out) == (0, b"")
    assert b"no decision in time" in err


def test_hostile_input_is_refused_and_decides_nothing() -> None:
    """Exit 1, not 2: Claude Code reads a hook's exit 2 as a blocking error (a denial)."""
    hook = subprocess.run(
        [sys.executable, "-m", "toolview", "hook", "claude-code", "--to", "http://127.0.0.1:9"],
        cwd=REPO,
        input=b'{"session_id": "s", "tool_name": "Bash", "tool_input": "rm -rf /"}',
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert (hook.returncode, hook.stdout) == (1, b"")
    assert b"not a PermissionRequest" in hook.stderr


def _codex(url: str, stdin: bytes, *extra: str) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "toolview", "hook", "codex", "--to", url, *extra]
    return subprocess.run(
        command, cwd=REPO, input=stdin, capture_output=True, timeout=60, check=False
    )


CODEX_ASK = {
    "session_id": "01a25346-3e06-79f2-b278-2c055a83f9ad",
    "turn_id": "t",
    "transcript_path": None,
    "hook_event_name": "PermissionRequest",
    "tool_name": "Bash",
    "tool_input": {"command": "touch x"},
}


def test_codex_hostile_input_exits_1_not_2_which_codex_reads_as_a_denial() -> None:
    """Codex 0.171 takes exit 2 with a stderr line as a deny: a refusal must decide nothing."""
    hook = _codex(
        "http://127.0.0.1:9", b'{"session_id": "s", "tool_name": "Bash", "tool_input": 1}'
    )
    assert (hook.returncode, hook.stdout) == (1, b"")
    assert b"not a PermissionRequest" in hook.stderr


def test_codex_no_server_decides_nothing() -> None:
    hook = _codex(f"http://127.0.0.1:{free_port()}", json.dumps(CODEX_ASK).encode())
    assert (hook.returncode, hook.stdout) == (0, b"")
    assert b"Codex asks" in hook.stderr


def test_codex_deny_with_its_message_is_codexs_deny(server: ToolviewServer) -> None:
    command = [sys.executable, "-m", "toolview", "hook", "codex", "--to", server.url]
    hook = subprocess.Popen(
        command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert hook.stdin is not None
    hook.stdin.write(json.dumps(CODEX_ASK).encode())
    hook.stdin.close()
    said = _waits(hook)
    call = said.split("call ", 1)[1].split(" waits", 1)[0]
    thread = f"{server.url}/api/threads/codex-{CODEX_ASK['session_id']}"
    body = {"decision": "deny", "message": "not on a Friday"}
    assert httpx.post(f"{thread}/calls/{call}/decision", json=body).status_code == 201
    out, _ = _finish(hook)
    assert json.loads(out)["hookSpecificOutput"]["decision"] == {
        "behavior": "deny",
        "message": "not on a Friday",
    }
