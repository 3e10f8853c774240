"""Codex's ``response_item`` payloads: messages, reasoning, and the calls' halves.

A ``response_item`` is what went to or came from the model: a message, a
reasoning item, a call (``function_call``, ``custom_tool_call``,
``local_shell_call``, ``web_search_call``) or a call's output. Context Codex
injects as user messages (``<environment_context>…``, AGENTS.md) is not the
user speaking, so it is not shown as such.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from toolview.contract import Message
from toolview.hosts.codex.fields import as_map, as_str, content_text, json_object
from toolview.hosts.codex.results import PendingCall

__all__ = ["CALL_TYPES", "OUTPUT_TYPES", "call_of", "message_of", "reasoning_of"]

CALL_TYPES: Final = frozenset(
    {"function_call", "custom_tool_call", "local_shell_call", "tool_search_call"}
)
OUTPUT_TYPES: Final = frozenset(
    {"function_call_output", "custom_tool_call_output", "tool_search_output"}
)
_TEXT_PARTS: Final = frozenset({"input_text", "output_text", "text"})
_OPENING: Final = re.compile(r"<([a-z_]{1,40}(?: [a-z_]{1,40})?)[ >]")


def message_of(item: Mapping[str, object]) -> Message | None:
    """A ``message`` (user or assistant) or an inter-agent ``agent_message`` as text."""
    role, text = item.get("role"), content_text(item.get("content"), kinds=_TEXT_PARTS)
    if not text.strip():
        return None
    if item.get("type") == "agent_message":
        return Message(role="user", text=text)
    if role == "assistant":
        return Message(role="assistant", text=text)
    if role == "user" and not _injected(text):
        return Message(role="user", text=text)
    return None


def _injected(text: str) -> bool:
    """Context Codex adds as a user message: one whole ``<tag>…</tag>`` element
    (``<environment_context>``, ``<user_instructions>``…) or AGENTS.md's text."""
    head = text.lstrip()[:200]
    if head.startswith("# AGENTS.md instructions"):
        return True
    opening = _OPENING.match(head)
    return opening is not None and text.rstrip().endswith(f"</{opening.group(1)}>")


def reasoning_of(item: Mapping[str, object]) -> Message | None:
    """A ``reasoning`` item's summary (and raw text, where kept) as a thinking message.

    Only encrypted content: nothing to show, so no message.
    """
    summary = content_text(item.get("summary"), kinds=frozenset({"summary_text"}))
    raw = content_text(item.get("content"), kinds=frozenset({"reasoning_text", "text"}))
    text = "\n\n".join(part for part in (summary, raw) if part.strip())
    return Message(role="thinking", text=text) if text else None


def call_of(item: Mapping[str, object]) -> PendingCall | None:
    """The call a ``function_call``/``custom_tool_call``/``local_shell_call`` (or a
    ``tool_search_call``, Codex looking up deferred tools such as MCP ones) makes."""
    kind = as_str(item.get("type"))
    call_id = as_str(item.get("call_id")) or as_str(item.get("id"))
    if call_id is None:
        return None
    if kind == "local_shell_call":
        return PendingCall(call_id, "local_shell", "local_shell", dict(as_map(item.get("action"))))
    if kind == "tool_search_call":
        return PendingCall(
            call_id, "tool_search", "tool_search", dict(as_map(item.get("arguments")))
        )
    name = as_str(item.get("name"))
    if name is None:
        return None
    namespace = as_str(item.get("namespace"))
    shown = f"{namespace}.{name}" if namespace else name
    if kind == "custom_tool_call":
        raw = item.get("input")
        return PendingCall(call_id, name, shown, {"input": raw if isinstance(raw, str) else ""})
    raw = item.get("arguments")
    args = json_object(raw)
    if args is None:
        args = {"arguments": raw} if raw is not None else {}
    return PendingCall(call_id, name, shown, args)
