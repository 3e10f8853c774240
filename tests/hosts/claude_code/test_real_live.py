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
import json
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "wire"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))

from sse_client import SSEFrame, read_frames
from toolview_servers import ToolviewServer

from toolview.contract import encode_observation
from toolview.hosts.claude_code import ClaudeCodeMapper, load_observations

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
    allowed: frozenset[str] | None = None  # set: open only gates on these calls

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
            if self.allowed is not None and not calls <= self.allowed:
                continue
            if not gate.is_set() and calls <= final:
                assert self.process is not None
                self.opened_while_running.append(self.process.poll() is None)
                gate.set()

    def open(self, calls: set[str]) -> None:
        """Open the gate on exactly ``calls`` by hand."""
        for held, gate in self.waiting:
            if held == calls:
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


def serve_watch(tmp_path: Path, projects: Path) -> ToolviewServer:
    """``toolview serve --watch projects`` on its log (the same log across restarts)."""
    return ToolviewServer.start(
        ["--port", "0", "--db", str(tmp_path / "log.db"), "--watch", str(projects)]
    )


def logged(url: str, thread_id: str) -> list[dict[str, Any]]:
    """Every event the server's log holds for the thread, page by page."""
    found: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = httpx.get(f"{url}/api/threads/{thread_id}/events?after={after}", timeout=60).json()
        found += page["events"]
        after = page["next"]
    return found


def follow_until(url: str, thread_id: str, gates: Gates, calls: set[str]) -> list[SSEFrame]:
    """Follow the thread, opening gates as calls turn final, until ``calls`` all are."""

    def until(so_far: list[SSEFrame]) -> bool:
        gates.seen(finals(so_far))
        return finals(so_far) >= calls

    return read_frames(f"{url}/api/threads/{thread_id}/follow", until=until, timeout=TIMEOUT)


def test_a_server_killed_mid_session_resumes_with_no_duplicate_and_no_gap(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    projects = home / ".claude" / "projects"
    projects.mkdir(parents=True)
    gates = Gates()
    scripted = with_workspace(lanes(), home / "workspace")
    scripted = {lane: gates.hold(turns) for lane, turns in scripted.items()}
    before = {call_id for call_id, _ in CALLS[:5]}  # TodoWrite … Read app.py
    gates.allowed = frozenset(before)
    session_id = str(uuid.uuid4())
    thread_id = f"claude-{session_id}"
    server = serve_watch(tmp_path, projects)
    try:
        args = ["--session-id", session_id]
        with run_claude(home, scripted, PROMPT, files=files(), args=args, wait=False) as run:
            gates.process = run.process
            wait_for_thread(server.url, thread_id, run.process)
            follow_until(server.url, thread_id, gates, before)
            server.kill()  # SIGKILL, mid-session: the agent waits on its 6th answer
            gates.open({"toolu_05read"})  # the Write runs while no server watches
            assert run.script.wait_for_requests(7, TIMEOUT)  # …and its result is written
            server = serve_watch(tmp_path, projects)
            gates.allowed = None
            everything = {call_id for call_id, _ in CALLS + SUB_CALLS}
            follow_until(server.url, thread_id, gates, everything)
            run.wait(timeout=TIMEOUT)
            session = run.session_file()
        read_frames(  # until the server has read the session's last message too
            f"{server.url}/api/threads/{thread_id}/follow",
            until=lambda frames: any(said_last(frame.data) for frame in frames),
            timeout=TIMEOUT,
        )
        events = logged(server.url, thread_id)
    finally:
        gates.release()
        server.kill()
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    stored = [shape(event["observation"]) for event in events]
    loaded = [shape(json.loads(encode_observation(o))) for o in load_observations(session)]
    # A live reader never reaches the end of input, so what only ``finish()``
    # knows (the last turn's usage, each run's end) is not in a live thread.
    assert Counter(stored) == Counter(loaded) - at_finish(session)
    for mark in {item[6] for item in loaded}:
        assert [i for i in stored if i[6] == mark] == [
            i for i in loaded if i[6] == mark and i in stored
        ]


def shape(observation: dict[str, Any]) -> tuple[object, ...]:
    """What identifies an observation in a thread, its redactable text aside."""
    keys = ("kind", "toolCallId", "toolName", "role", "complete", "isError", "parentCallId", "at")
    return tuple(observation.get(key) for key in keys)


def at_finish(session: Path) -> Counter[tuple[object, ...]]:
    """What the mappers add only at the end of input, for the session and its sub-agents."""
    files = [(session, None)]
    for meta in sorted((session.with_suffix("") / "subagents").glob("*.meta.json")):
        mark = json.loads(meta.read_text())["toolUseId"]
        files.append((meta.with_name(meta.name.replace(".meta.json", ".jsonl")), mark))
    found: Counter[tuple[object, ...]] = Counter()
    for path, mark in files:
        mapper = ClaudeCodeMapper(parent_call_id=mark)
        for line in path.read_bytes().splitlines():
            mapper.feed_line(line)
        found.update(shape(json.loads(encode_observation(o))) for o in mapper.finish())
    return found


def said_last(observation: dict[str, Any]) -> bool:
    """The main agent's closing message (the scripted session's last record with content)."""
    text = str(observation.get("text", ""))
    return observation.get("kind") == "message" and text.startswith("Done: notes written")
