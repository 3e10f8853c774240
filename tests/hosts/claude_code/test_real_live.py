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

import json
import threading
import uuid
from collections import Counter
from pathlib import Path

from toolview.contract import encode_observation
from toolview.hosts.claude_code import load_observations

from .claude_cli import run_claude
from .live import (
    TIMEOUT,
    Gates,
    SSEFrame,
    at_finish,
    finals,
    follow_until,
    logged,
    read_frames,
    said_last,
    serve_watch,
    shape,
    wait_for_thread,
)
from .real_session import AWS_KEY, CALLS, PROMPT, SUB_CALLS, lanes, with_workspace
from .real_session import workspace_files as files


def test_a_follower_sees_each_call_while_the_agent_runs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    projects = home / ".claude" / "projects"
    projects.mkdir(parents=True)
    server = serve_watch(tmp_path, projects)
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
    # No duplicate: nothing twice, nothing the file does not hold. No gap: all
    # of it, bar what only ``finish()`` knows (the last turn's usage, each
    # run's end), which a live reader (never at the end of input) may lack.
    assert not Counter(stored) - Counter(loaded)
    assert not (Counter(loaded) - at_finish(session)) - Counter(stored)
    for mark in {item[6] for item in loaded}:
        assert [i for i in stored if i[6] == mark] == [
            i for i in loaded if i[6] == mark and i in stored
        ]
