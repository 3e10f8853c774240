"""``Settling``: which entries a follower prints (``show --follow``, ``capture(live=True)``)."""

from __future__ import annotations

from toolview.contract import (
    CallEntry,
    Message,
    MessageEntry,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.render import text
from toolview.render.settling import Settling


def ids(entries: list[object]) -> list[str]:
    return [e.tool_call_id if isinstance(e, CallEntry) else "message" for e in entries]


def test_a_message_at_once_a_call_when_final_or_when_its_run_ends() -> None:
    settling = Settling()
    assert settling.add(RunStarted("r1")) == []
    assert ids(settling.add(Message("user", "hi"))) == ["message"]
    assert settling.add(ToolCall("c1", "bash", {})) == []
    assert settling.add(ToolCall("c2", "bash", {})) == []
    assert settling.add(ToolResult("c1", "bash", "so far", False, False)) == []
    assert ids(settling.add(ToolResult("c1", "bash", "all", True, False))) == ["c1"]
    assert ids(settling.add(RunEnded("r1", "aborted"))) == ["c2"]  # aborted: final too


def test_a_late_partial_prints_nothing_more() -> None:
    settling = Settling()
    settling.add(ToolRefused("c1", "bash", "no"))
    assert settling.add(ToolResult("c1", "bash", "late", False, False)) == []


def test_a_second_final_result_prints_the_call_again_with_its_note() -> None:
    settling = Settling()
    (first,) = settling.add(ToolResult("c1", "bash", "ok", True, False))
    (again,) = settling.add(ToolResult("c1", "bash", "boom", True, True))
    assert again is first and not isinstance(again, MessageEntry)
    shown = text.render_thread(settling.view(again))
    assert "ok" in shown and "ignored, the first stands: boom" in shown
