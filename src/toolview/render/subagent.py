"""A sub-agent under its call, decided once for every surface (issue 14, item 3).

A call that ran a sub-agent has a child thread (``Thread.child``). Its view
says who the sub-agent was and what it was asked (from the call's arguments:
``subagent_type``, ``description``, ``prompt``), how much it did (its calls,
how many failed, the tokens of its model turns, the time its observations
span) and then its own entries, each decided as the thread's are — calls
(whose sub-agents nest in turn), messages and notes — every one of them, or
at most ``Limits.max_sub_entries`` when a cut is asked (the live page's
window, ``--max-sub-entries``), the rest counted. Below ``Limits.depth``
levels only one line is drawn: ``sub-agent: 3 calls (cut at depth 2)``.

The call's result is the sub-agent's final answer: it stays the call's body.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Final, TypeAlias

from toolview.contract import CallEntry, Entry, MessageEntry, Thread
from toolview.contract.moments import parse_at
from toolview.render.bodies import CallView, SubAgent, SubMessage, SubNote, SubPart
from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import Limits, Omission, Window
from toolview.render.notes import ignored_note
from toolview.render.receipt import Receipt

__all__ = ["ARG_KEYS", "sub_agent"]
Decide: TypeAlias = Callable[[CallEntry, Thread, Limits, int], CallView | Receipt]

_TYPE_KEYS: Final = ("subagent_type", "agent_type")
_TITLE_KEYS: Final = ("description",)
_PROMPT_KEYS: Final = ("prompt", "message", "task")
ARG_KEYS: Final = frozenset(_TYPE_KEYS + _TITLE_KEYS + _PROMPT_KEYS)
"""The call's arguments the sub-agent's view shows, so its header's args leave them out."""
_FIELD: Final = 200
_PROMPT_LINES: Final = 20


def sub_agent(
    entry: CallEntry, child: Thread, limits: Limits, level: int, decide: Decide
) -> SubAgent:
    """The view of ``child``, the sub-agent of ``entry``, drawn ``level`` levels deep (1: first)."""
    if level > limits.depth:
        count = child.counts().calls
        noun = "call" if count == 1 else "calls"
        line = f"sub-agent: {count:,} {noun} (cut at depth {max(0, limits.depth)})"
        return SubAgent(title="", counts="", cut=line)
    args = entry.call.args if entry.call is not None else {}
    prompt = _arg(args, _PROMPT_KEYS)
    entries = child.entries
    if prompt and entries and _same_prompt(entries[0], prompt):
        entries = entries[1:]  # the sub-agent's first message is the prompt, already shown
    cut = limits.max_sub_entries
    shown = entries if cut is None else entries[: max(0, cut)]
    parts = tuple(_part(e, child, limits, level, decide) for e in shown)
    left = len(entries) - len(shown) + child.trimmed.entries  # a stream counted some only
    return SubAgent(
        title=_title(args),
        counts=_counts(child),
        prompt=_prompt(prompt, limits),
        entries=parts,
        more=Omission(left, "items") if left > 0 else None,
        call_ids=tuple(e.tool_call_id if isinstance(e, CallEntry) else None for e in shown),
        duration_ms=_span(child),
    )


def _part(entry: Entry, child: Thread, limits: Limits, level: int, decide: Decide) -> SubPart:
    if isinstance(entry, CallEntry):
        return decide(entry, child, limits, level)
    if isinstance(entry, MessageEntry):
        return SubMessage(entry.message.role, shown_text(entry.message.text, limits))
    text = entry.text + ignored_note(entry.late) if entry.late is not None else entry.text
    return SubNote(clean_field(text, limits.max_chars, "space"))


def _arg(args: dict[str, object], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _title(args: dict[str, object]) -> str:
    """``sub-agent general-purpose: Find the config`` — its type and description, as known."""
    kind, title = _arg(args, _TYPE_KEYS), _arg(args, _TITLE_KEYS)
    words = "sub-agent" + (f" {clean_field(kind, _FIELD, 'space')}" if kind else "")
    return words + (f": {clean_field(title, _FIELD, 'space')}" if title else "")


def _prompt(prompt: str | None, limits: Limits) -> Window | None:
    if prompt is None:
        return None
    lines = min(limits.max_lines, _PROMPT_LINES)
    return shown_text(prompt, Limits(max_lines=lines, max_chars=limits.max_chars))


def _same_prompt(first: Entry, prompt: str) -> bool:
    return (
        isinstance(first, MessageEntry)
        and first.message.role == "user"
        and first.message.text.strip() == prompt.strip()
    )


def _counts(child: Thread) -> str:
    """``3 calls, 1 failed · 1,200 tokens (1,000 in, 200 out)`` — what is known.

    The sub-agent's own calls and failures, as its thread counts them
    (``contract.counts``: those a stream trimmed included)."""
    counts = child.counts()
    failed, count = counts.failed, counts.calls
    parts = [f"{count:,} call{'' if count == 1 else 's'}"]
    if failed:
        parts[0] += f", {failed:,} failed"
    tokens_in = sum(usage.input_tokens for usage in child.usage)
    tokens_out = sum(usage.output_tokens for usage in child.usage)
    if child.usage:
        total = tokens_in + tokens_out
        parts.append(f"{total:,} tokens ({tokens_in:,} in, {tokens_out:,} out)")
    return " · ".join(parts)


def _span(child: Thread) -> int | None:
    """Milliseconds from the first to the last ``at`` of the sub-agent's observations."""
    stamps: list[datetime] = []
    for entry in child.entries:
        for observation in _observations(entry):
            moment = parse_at(getattr(observation, "at", None))
            if moment is not None:
                stamps.append(moment)
    stamps += [m for m in (parse_at(u.at) for u in child.usage) if m is not None]
    stamps += [at for at in (child.trimmed.first_at, child.trimmed.last_at) if at is not None]
    if len(stamps) < 2:
        return None
    return int((max(stamps) - min(stamps)).total_seconds() * 1000)


def _observations(entry: Entry) -> tuple[object, ...]:
    if isinstance(entry, CallEntry):
        return (entry.call, entry.result)
    return (entry.message,) if isinstance(entry, MessageEntry) else ()
