"""A mapper finished mid-file and fed the rest reads as the whole file does.

Why: ``serve --watch`` finishes a session file that stays idle (the mapper's
``finish``: the held usage, the run's end) and feeds the lines that come
after it to the same mapper. At every cut of the real CLIs' sessions
(Claude Code 2.1.197, Codex 0.171.0, Gemini CLI 0.61.0, Qwen Code 0.24.4,
Copilot CLI 1.0.102; Cursor's agent from its published stream-json),
what the mapper gives must be what one read of the whole file gives —
nothing repeated, nothing lost — but for the run events, and a ``Thread``
fed it must hold every call in the same state: the run ``finish`` ended
starts again (the same run id), so a call it left aborted is pending again
and takes its result.

Cuts a writer never leaves idle are not tried (the two known differences,
docs/server.md): between two records of one Claude Code message (written
together; the finish counts the usage copy it holds, not the last), and
between a Codex call's end record and its output (the finish answers the
call from its end record); and between two of Cursor's thinking deltas (the finish says
the thinking so far).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import pytest

from toolview.contract import (
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    encode_observation,
)
from toolview.hosts.claude_code import ClaudeCodeMapper
from toolview.hosts.codex import CodexMapper
from toolview.hosts.copilot import CopilotMapper
from toolview.hosts.cursor import CursorMapper
from toolview.hosts.gemini import GeminiMapper
from toolview.hosts.qwen import QwenMapper

HOSTS = Path(__file__).resolve().parent
CLAUDE = HOSTS / "claude_code" / "real" / "d4bcab06-3388-4364-a88a-ecbbddedf62a.jsonl"
CODEX = [
    p
    for p in sorted((HOSTS / "codex" / "real" / "sessions").rglob("rollout-*.jsonl"))
    if b'"parent_thread_id"' not in p.read_bytes()[:4096]
]


class Mapper(Protocol):
    def feed_line(self, line: bytes) -> list[Observation]: ...
    def finish(self) -> list[Observation]: ...


def claude_cuts(lines: list[bytes]) -> list[int]:
    """Every cut but those inside one message's records."""

    def message(line: bytes) -> object:
        return json.loads(line).get("message", {}).get("id") or None

    ids = [message(line) for line in lines]
    return [c for c in range(1, len(lines)) if ids[c - 1] is None or ids[c - 1] != ids[c]]


def codex_cuts(lines: list[bytes]) -> list[int]:
    """Every cut but those between a call's end record and its output."""
    cuts, mapper = [], CodexMapper()
    for cut in range(1, len(lines)):
        mapper.feed_line(lines[cut - 1])
        if all(call.end is None for call in mapper.calls.values()):
            cuts.append(cut)
    return cuts


def cursor_cuts(lines: list[bytes]) -> list[int]:
    """Every cut but those between two thinking deltas (the finish says the thinking so
    far; the deltas after it are a second thinking message)."""
    delta = [b'"type":"thinking","subtype":"delta"' in line for line in lines]
    return [c for c in range(1, len(lines)) if not (delta[c - 1] and delta[c])]


GEMINI = next((HOSTS / "gemini" / "real" / "tmp").rglob("session-*.jsonl"))
QWEN = next((HOSTS / "qwen" / "real").rglob("*.jsonl"))
COPILOT = next((HOSTS / "copilot" / "real").rglob("events.jsonl"))
CURSOR = HOSTS / "cursor" / "fixtures" / "run.jsonl"  # from the published format
SESSIONS: list[tuple[Path, Callable[[], Mapper]]] = [
    (CLAUDE, ClaudeCodeMapper),
    *((path, CodexMapper) for path in CODEX),
    (GEMINI, GeminiMapper),  # every cut: a call is one finished record there
    (QWEN, QwenMapper),  # every cut: a record is written once
    (COPILOT, CopilotMapper),  # every cut: an event is written once
    (CURSOR, CursorMapper),  # every cut: an event is printed once
]


def read(make: Callable[[], Mapper], lines: list[bytes], cuts: list[int]) -> list[Observation]:
    """The lines fed to one mapper, ``finish`` at each cut and at the end."""
    mapper, out, start = make(), [], 0
    for cut in [*cuts, len(lines)]:
        for line in lines[start:cut]:
            out += mapper.feed_line(line)
        out += mapper.finish()
        start = cut
    return out


def without_runs(observations: list[Observation]) -> Counter[bytes]:
    return Counter(
        encode_observation(o) for o in observations if not isinstance(o, RunStarted | RunEnded)
    )


def states(observations: list[Observation]) -> dict[str, str]:
    thread = Thread()
    for observation in observations:
        thread.add(observation)
    calls = [o.tool_call_id for o in observations if isinstance(o, ToolCall)]
    return {call: thread.state(entry) for call in calls if (entry := thread.call(call))}


def run_ids(observations: list[Observation]) -> set[str]:
    return {o.run_id for o in observations if isinstance(o, RunStarted)}


@pytest.mark.parametrize(("path", "make"), SESSIONS, ids=lambda v: getattr(v, "stem", ""))
def test_finished_at_every_cut_and_fed_the_rest_it_reads_as_the_whole_file(
    path: Path, make: Callable[[], Mapper]
) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    whole = read(make, lines, [])
    assert whole and states(whole)
    cuts = (
        claude_cuts(lines)
        if make is ClaudeCodeMapper
        else codex_cuts(lines)
        if make is CodexMapper
        else cursor_cuts(lines)
        if make is CursorMapper
        else list(range(1, len(lines)))
    )
    assert len(cuts) > len(lines) // 2
    for cut in cuts:
        got = read(make, lines, [cut])
        assert without_runs(got) == without_runs(whole), f"cut after line {cut}"
        assert states(got) == states(whole), f"cut after line {cut}"
        assert run_ids(got) == run_ids(whole), f"cut after line {cut}"  # the same runs reopened


def test_finished_twice_at_the_end_gives_nothing_the_second_time() -> None:
    lines = CLAUDE.read_bytes().splitlines(keepends=True)
    mapper = ClaudeCodeMapper()
    for line in lines:
        mapper.feed_line(line)
    assert mapper.finish() and mapper.finish() == []
