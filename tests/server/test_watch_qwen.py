"""The watcher on the real Qwen Code chat (0.24.4, tests/hosts/qwen/real): told apart from
Claude Code's (whose records carry the same ``uuid``/``sessionId``/``type`` fields) and
read by the Qwen mapper, every call answered, the failed command a failure."""

from __future__ import annotations

from pathlib import Path

from toolview.contract import ToolCall, ToolResult
from toolview.server.ingest.watch.formats import FORMATS, QwenLines
from toolview.server.ingest.watch.opening import open_reader

CHAT = next((Path(__file__).resolve().parents[1] / "hosts" / "qwen" / "real").rglob("*.jsonl"))


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
