"""Helpers for the live tests: hold the scripted model until a follower saw the calls.

``Gates`` holds each scripted answer after the first until the calls of the
turn before are final on a follower of the thread (an event, never a sleep):
while the model is held the agent is blocked on it, so a call a gate opened
on provably reached the follower while the agent ran. The rest reads a real
``toolview serve --watch``: its thread list, its log, its follow stream.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
import time
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
from toolview.hosts.claude_code import ClaudeCodeMapper

from .scripted_anthropic import Turn

__all__ = [
    "TIMEOUT",
    "Gates",
    "SSEFrame",
    "at_finish",
    "finals",
    "follow_until",
    "logged",
    "read_frames",
    "said_last",
    "serve_watch",
    "shape",
    "wait_for_thread",
]

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
