"""Live: ``toolview serve --watch`` shows a running Claude Code session call by call.

The real CLI runs the whole scripted session in a temporary HOME while a real
``toolview serve --watch HOME/.claude/projects`` ingests the files it writes.
Each scripted answer after the first is held (an event, not a sleep) until a
follower of the thread has seen the previous turn's calls final: the agent is
blocked waiting for the model at that moment, so every call — the
sub-agent's too — provably reached the follower while the agent was running,
one by one, not in a batch at the end.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "wire"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))

from sse_client import SSEFrame, read_frames
from toolview_servers import ToolviewServer

from .claude_cli import run_claude
from .real_session import AWS_KEY, CALLS, PROMPT, SUB_CALLS, lanes, with_workspace
from .real_session import workspace_files as files
from .scripted_anthropic import Turn

TIMEOUT = 300.0


@dataclass
class Gates:
    """One gate per held turn, opened when the calls of the turn before are all final."""

    process: subprocess.Popen[str] | None = None
    waiting: list[tuple[frozenset[str], threading.Event]] = field(default_factory=list)
    opened_while_running: list[bool] = field(default_factory=list)

    def hold(self, turns: list[Turn]) -> list[Turn]:
        """``turns`` with every turn after the first held on its predecessor's calls."""
        held = turns[:1]
        for before, turn in itertools.pairwise(turns):
            gate = threading.Event()
            self.waiting.append((frozenset(call.id for call in before.calls), gate))
            held.append(Turn(turn.text, turn.thinking, turn.calls, gate=gate))
        return held

    def seen(self, final: set[str]) -> None:
        """Open each gate whose calls the follower has now seen final."""
        for calls, gate in self.waiting:
            if not gate.is_set() and calls <= final:
                assert self.process is not None
                self.opened_while_running.append(self.process.poll() is None)
                gate.set()

    def release(self) -> None:
        for _, gate in self.waiting:
            gate.set()


def finals(frames: list[SSEFrame]) -> set[str]:
    """The call ids whose final result a follower has received."""
    return {
        str(frame.data.get("toolCallId"))
        for frame in frames
        if frame.data.get("kind") == "tool-result" and frame.data.get("complete") is True
    }


def wait_for_thread(url: str, thread_id: str, process: subprocess.Popen[str]) -> None:
    """Until the server lists ``thread_id`` (it ingests the file as the CLI writes it)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        ids = [t["id"] for t in httpx.get(f"{url}/api/threads", timeout=30).json()["threads"]]
        if thread_id in ids:
            return
        assert process.poll() is None, "the CLI exited before its thread appeared"
        time.sleep(0.05)
    raise TimeoutError(f"{thread_id} never appeared on the server")


def test_a_follower_sees_each_call_while_the_agent_runs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    projects = home / ".claude" / "projects"
    projects.mkdir(parents=True)
    server = ToolviewServer.start(
        ["--port", "0", "--db", str(tmp_path / "log.db"), "--watch", str(projects)]
    )
    gates = Gates()
    scripted = {
        lane: gates.hold(turns)
        for lane, turns in with_workspace(lanes(), home / "workspace").items()
    }
    session_id = str(uuid.uuid4())
    expected = {call_id for call_id, _ in CALLS + SUB_CALLS}
    frames: list[SSEFrame] = []

    def until(so_far: list[SSEFrame]) -> bool:
        frames[:] = so_far
        gates.seen(finals(so_far))
        return finals(so_far) >= expected

    try:
        args = ["--session-id", session_id]
        with run_claude(home, scripted, PROMPT, files=files(), args=args, wait=False) as run:
            gates.process = run.process
            thread_id = f"claude-{session_id}"
            wait_for_thread(server.url, thread_id, run.process)
            url = f"{server.url}/api/threads/{thread_id}/follow"
            follower = threading.Thread(
                target=read_frames, kwargs={"url": url, "until": until, "timeout": TIMEOUT}
            )
            follower.start()
            run.wait(timeout=TIMEOUT)
            follower.join(timeout=TIMEOUT)
    finally:
        gates.release()
        server.kill()
    assert finals(frames) >= expected
    assert gates.opened_while_running == [True] * len(gates.waiting) == [True] * 13
    assert not any(AWS_KEY in str(frame.data) for frame in frames)
