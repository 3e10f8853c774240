"""The watcher on the real Gemini CLI's chats (0.61.0, tests/hosts/gemini/real), both logs.

The main chat and its sub-agent's are written back line by line into a
``<project>/chats`` folder while ``SessionWatcher`` runs — the sub-agent's
first lines *before* the parent's line that records the ``invoke_agent``
call (so it must wait for its link), the rest after. The sub-agent's
observations must join the parent's thread marked with that call, and no
thread of its own be made; the failed command is a failure there too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_watcher import records, until_seq, watching
from toolview_servers import run_async

from toolview.contract import encode_observation
from toolview.server.ingest.watch.formats import GeminiLines

CHATS = Path(__file__).resolve().parents[1] / "hosts" / "gemini" / "real" / "tmp"
PARENT = next(CHATS.rglob("session-*.jsonl"))
CHILD = next(p for p in CHATS.rglob("*.jsonl") if p != PARENT)
LogOpener = Any
MARKER = b'{"kind": "message", "role": "user", "text": "marker"}\n'


def key(observation: dict[str, Any]) -> tuple[object, ...]:
    return (observation["kind"], observation.get("toolCallId"), observation.get("parentCallId"))


def test_a_sub_agents_chat_joins_its_parent_thread_marked_with_its_call(
    open_log: LogOpener, tmp_path: Path
) -> None:
    parent_lines = PARENT.read_bytes().splitlines(keepends=True)
    child_lines = CHILD.read_bytes().splitlines(keepends=True)
    mapper = GeminiLines(PARENT, None)
    spawn, call = next(
        (n, links[0][1])
        for n, line in enumerate(parent_lines)
        if (mapper.feed_line(line), links := mapper.links())[1]
    )
    child_mapper, parent_mapper = GeminiLines(CHILD, call), GeminiLines(PARENT, None)
    expected = [
        json.loads(encode_observation(o))
        for lines, m in ((parent_lines, parent_mapper), (child_lines, child_mapper))
        for line in lines
        for o in m.feed_line(line)
    ]
    chats = tmp_path / "workspace" / "chats"
    (chats / CHILD.parent.name).mkdir(parents=True)
    parent, child = chats / PARENT.name, chats / CHILD.parent.name / CHILD.name
    thread = "gemini-" + PARENT.stem[-8:]

    def append(path: Path, lines: list[bytes]) -> None:
        with path.open("ab") as stream:
            stream.write(b"".join(lines))

    counting = GeminiLines(PARENT, None)
    before_spawn = sum(len(counting.feed_line(line)) for line in parent_lines[:spawn])

    async def check() -> None:
        log = open_log()
        async with watching(log, tmp_path) as watcher:
            append(parent, parent_lines[:spawn])
            await until_seq(log, thread, before_spawn)
            append(child, child_lines[:2])  # before its link
            # read after the child's change (a batch is read in path order)
            (tmp_path / "zz-marker.jsonl").write_bytes(MARKER)
            await until_seq(log, "zz-marker", 1)
            assert child in watcher.sub_agents.codex_waiting  # read, and waiting for its link
            assert [t.id for t in await log.threads()] == [thread, "zz-marker"]
            append(parent, parent_lines[spawn:])
            append(child, child_lines[2:])
            await until_seq(log, thread, len(expected))
            got = await records(log, thread)
        assert sorted(map(key, got), key=str) == sorted(map(key, expected), key=str)
        mine = [key(o) for o in expected if o.get("parentCallId") is None]
        assert [key(o) for o in got if o.get("parentCallId") is None] == mine
        assert [key(o) for o in got if o.get("parentCallId") == call] == [
            key(o) for o in expected if o.get("parentCallId") == call
        ]
        failed = [o for o in got if o["kind"] == "tool-result" and o["isError"]]
        assert [o["descriptor"]["props"]["exitCode"] for o in failed] == [3]
        assert [t.id for t in await log.threads()] == [thread, "zz-marker"]  # none for the child
        await log.aclose()

    run_async(check)
