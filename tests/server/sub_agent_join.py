"""The watcher joining a sub-agent's session file to its parent's thread, as a real agent
writes them: shared by the Codex and Gemini CLI tests (their real files, their mappers).

The parent's file and the sub-agent's are written back line by line into
their places under a watched folder — the sub-agent's first lines *before*
the parent's line that links it (so it must wait for its link), the rest
after. The sub-agent's observations must join the parent's thread marked
with the spawning call, and no thread of its own be made.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from test_watcher import records, until_seq, watching
from toolview_servers import run_async

from toolview.contract import encode_observation
from toolview.server.ingest.watch.formats import SessionMapper

__all__ = ["Written", "joined_records"]

MARKER = b'{"kind": "message", "role": "user", "text": "marker"}\n'
MARKED = "zz-marker"  # read after the sub-agent's change: a batch is read in path order


@dataclass(frozen=True)
class Written:
    """A real session file (``source``) and where the agent writes it (``place``)."""

    source: Path
    place: Path

    def lines(self) -> list[bytes]:
        return self.source.read_bytes().splitlines(keepends=True)

    def append(self, lines: list[bytes]) -> None:
        self.place.parent.mkdir(parents=True, exist_ok=True)
        with self.place.open("ab") as stream:
            stream.write(b"".join(lines))


def key(observation: dict[str, Any]) -> tuple[object, ...]:
    return (observation["kind"], observation.get("toolCallId"), observation.get("parentCallId"))


def joined_records(
    open_log: Callable[[], Any],
    root: Path,
    parent: Written,
    child: Written,
    lines_of: Callable[[Path, str | None], SessionMapper],
    thread: str,
) -> list[dict[str, Any]]:
    """Write both files under ``root`` while the watcher runs; check the join; the thread's
    records (for the caller's own checks)."""
    parent_lines, child_lines = parent.lines(), child.lines()
    mapper = lines_of(parent.source, None)
    spawn, call = next(
        (n, links[0][1])
        for n, line in enumerate(parent_lines)
        if (mapper.feed_line(line), links := mapper.links())[1]
    )
    mappers = (
        (parent_lines, lines_of(parent.source, None)),
        (child_lines, lines_of(child.source, call)),
    )
    expected = [
        json.loads(encode_observation(o))
        for lines, m in mappers
        for line in lines
        for o in m.feed_line(line)
    ]
    counting = lines_of(parent.source, None)
    before_spawn = sum(len(counting.feed_line(line)) for line in parent_lines[:spawn])
    got: list[dict[str, Any]] = []

    async def check() -> None:
        log = open_log()
        async with watching(log, root) as watcher:
            parent.append(parent_lines[:spawn])
            await until_seq(log, thread, before_spawn)
            child.append(child_lines[:2])  # before its link
            (root / f"{MARKED}.jsonl").write_bytes(MARKER)
            await until_seq(log, MARKED, 1)
            assert child.place in watcher.sub_agents.codex_waiting  # read, waiting for its link
            assert [t.id for t in await log.threads()] == [thread, MARKED]
            parent.append(parent_lines[spawn:])
            child.append(child_lines[2:])
            await until_seq(log, thread, len(expected))
            got.extend(await records(log, thread))
        assert sorted(map(key, got), key=str) == sorted(map(key, expected), key=str)
        for mark in (None, call):
            mine = [key(o) for o in expected if o.get("parentCallId") == mark]
            assert [key(o) for o in got if o.get("parentCallId") == mark] == mine
        assert [t.id for t in await log.threads()] == [thread, MARKED]  # none for the child
        await log.aclose()

    run_async(check)
    return got
