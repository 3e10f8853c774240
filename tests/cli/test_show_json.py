"""``show --json``'s redaction: a sub-agent's mark crosses as its call's id does."""

from __future__ import annotations

from claude_sessions import SECRET

from toolview.cli.show_json import redacted
from toolview.contract import Message, ToolCall


def test_a_mark_with_a_secret_is_the_same_opaque_id_as_its_call() -> None:
    call = redacted(ToolCall(f"call-{SECRET}", "Agent", {"prompt": SECRET}))
    child = redacted(Message("assistant", f"done {SECRET}", parent_call_id=f"call-{SECRET}"))
    assert SECRET not in call.tool_call_id and SECRET not in str(call.args)
    assert child.parent_call_id == call.tool_call_id
    assert isinstance(child, Message) and SECRET not in child.text


def test_a_plain_mark_is_kept() -> None:
    child = redacted(Message("user", "hi", parent_call_id="toolu_01"))
    assert child.parent_call_id == "toolu_01"
