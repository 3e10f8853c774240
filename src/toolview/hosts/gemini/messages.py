"""What one Gemini CLI message holds, and what of it has been drawn already.

A chat file writes a message again each time it changes (its tokens, then
its finished calls), so each message keeps a ``Drawn`` record: the mapper
draws only what a line adds — the thoughts past those drawn, the text and
the tokens once, each call and each result once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import msgspec

from toolview.contract import Message, Usage
from toolview.hosts.codex.fields import as_map, as_str

__all__ = ["Drawn", "message_text", "new_thoughts", "usage_of"]


@dataclass
class Drawn:
    """What has been drawn of one message."""

    text: bool = False
    thoughts: int = 0
    usage: bool = False
    calls: set[str] = field(default_factory=set)
    results: set[str] = field(default_factory=set)


def message_text(content: object) -> str:
    """A message's ``content`` (a string, or parts) as text; only its ``text`` parts."""
    if isinstance(content, str):
        return content
    parts = [as_map(part).get("text") for part in (content if isinstance(content, list) else [])]
    return "".join(part for part in parts if isinstance(part, str))


def new_thoughts(thoughts: object, drawn: Drawn) -> list[Message]:
    """The ``thoughts[]`` (``subject``, ``description``) past those drawn, as thinking."""
    if not isinstance(thoughts, list):
        return []
    out = []
    for thought in thoughts[drawn.thoughts :]:
        subject = as_str(as_map(thought).get("subject"))
        said = as_str(as_map(thought).get("description")) or ""
        out.append(Message(role="thinking", text=f"{subject}\n{said}" if subject else said))
    drawn.thoughts = len(thoughts)
    return out


def usage_of(model: str, tokens: Mapping[str, object], run_id: str | None) -> Usage:
    """One response's ``tokens``. Gemini counts cached tokens inside the prompt and thoughts
    beside the answer: input is the prompt less the cache, output the answer plus thoughts."""
    count = {k: v for k, v in tokens.items() if type(v) is int and v >= 0}
    cached = count.get("cached", 0)
    return Usage(
        model=model,
        input_tokens=max(0, count.get("input", 0) - cached),
        output_tokens=count.get("output", 0) + count.get("thoughts", 0),
        cache_read_tokens=cached if "cached" in count else msgspec.UNSET,
        run_id=run_id or msgspec.UNSET,
    )
