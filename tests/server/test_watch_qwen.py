"""The watcher on the real Qwen Code chats (0.24.4, tests/hosts/qwen/real and real_agent):
told apart from Claude Code's (whose records carry the same ``uuid``/``sessionId``/``type``
fields) and read by the Qwen mapper, every call answered, the failed command a failure; a
sub-agent's chat (``subagents/<session>/agent-<id>.jsonl``) waits for its meta file, then
joins the parent's thread marked with the ``agent`` call, with no thread of its own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from test_watcher import records, until_seq, watching
from toolview_servers import run_async

from toolview.contract import ToolCall, ToolResult, encode_observation
from toolview.server.ingest.watch.formats import FORMATS, QWEN, QwenLines, thread_id
from toolview.server.ingest.watch.opening import open_reader

CHAT = next((Path(__file__).resolve().parents[1] / "hosts" / "qwen" / "real").rglob("*.jsonl"))
REAL = Path(__file__).resolve().parents[1] / "hosts" / "qwen" / "real_agent" / "projects"
PARENT = next(REAL.rglob("chats/*.jsonl"))
CHILD = next(REAL.rglob("subagents/*/agent-*.jsonl"))
META = CHILD.with_name(CHILD.name.removesuffix(".jsonl") + ".meta.json")
CALL = json.loads(META.read_text())["toolUseId"]


def _mapped(path: Path, call: str | None) -> list[dict[str, Any]]:
    lines, out = QwenLines(path, call), []
    for line in path.read_bytes().splitlines():
        out += [json.loads(encode_observation(o)) for o in lines.feed_line(line)]
    return out


def _key(o: dict[str, Any]) -> tuple[object, ...]:
    return (o["kind"], o.get("toolCallId"), o.get("parentCallId"))


def test_a_sub_agents_chat_joins_its_parent_thread_once_its_meta_links_it(
    open_log: Any, tmp_path: Path
) -> None:
    own = _mapped(PARENT, None)
    expected = sorted(map(_key, own + _mapped(CHILD, CALL)), key=str)
    assert ("tool-call", "s1", CALL) in expected  # the sub-agent's call, marked
    place = {p: tmp_path / p.relative_to(REAL) for p in (PARENT, CHILD, META)}
    thread = thread_id(QWEN, place[PARENT], 1)

    async def check() -> None:
        log = open_log()
        async with watching(log, tmp_path):
            for path in (PARENT, CHILD):
                place[path].parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, place[path])
            await until_seq(log, thread, len(own))
            assert [t.id for t in await log.threads()] == [thread]  # the sub-agent waits
            shutil.copy(META, place[META])  # the link, written
            await until_seq(log, thread, len(expected))
            got = await records(log, thread)
            assert sorted(map(_key, got), key=str) == expected
            assert [t.id for t in await log.threads()] == [thread]  # none for the sub-agent
        await log.aclose()

    run_async(check)


def test_a_qwen_chat_is_read_as_qwen_whatever_the_formats_order(tmp_path: Path) -> None:
    path = tmp_path / CHAT.name
    path.write_bytes(CHAT.read_bytes())
    reader = open_reader(path, None, FORMATS)
    assert reader is not None and isinstance(reader.mapper, QwenLines)
    observations = []
    while (batch := reader.read_batch()) is not None:
        reader.commit(batch)
        observations += batch.observations
    calls = [o.tool_call_id for o in observations if isinstance(o, ToolCall)]
    results = [o for o in observations if isinstance(o, ToolResult)]
    assert len(calls) == 5 and sorted(r.tool_call_id for r in results) == sorted(calls)
    assert [r.tool_name for r in results if r.is_error] == ["run_shell_command"]
