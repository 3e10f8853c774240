"""The watcher on the real Gemini CLI's chats (0.61.0, tests/hosts/gemini/real), both logs:
the ``generalist`` sub-agent's chat (``chats/<session>/<agent id>.jsonl``) waits for the
parent's line that records its ``invoke_agent`` call, then joins the parent's thread under
it (``sub_agent_join``); the failed command is a failure there too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sub_agent_join import Written, joined_records

from toolview.server.ingest.watch.formats import GeminiLines

CHATS = Path(__file__).resolve().parents[1] / "hosts" / "gemini" / "real" / "tmp"
PARENT = next(CHATS.rglob("session-*.jsonl"))
CHILD = next(p for p in CHATS.rglob("*.jsonl") if p != PARENT)


def test_a_sub_agents_chat_joins_its_parent_thread_marked_with_its_call(
    open_log: Any, tmp_path: Path
) -> None:
    parent = Written(PARENT, tmp_path / PARENT.relative_to(CHATS))
    child = Written(CHILD, tmp_path / CHILD.relative_to(CHATS))
    got = joined_records(
        open_log, tmp_path, parent, child, GeminiLines, "gemini-" + PARENT.stem[-8:]
    )
    failed = [o for o in got if o["kind"] == "tool-result" and o["isError"]]
    assert [o["descriptor"]["props"]["exitCode"] for o in failed] == [3]
