"""A call's searchable text: the one maker below the thread search and the FTS index.

Why one maker: ``GET /api/threads/{id}/search`` (``server.page.search.thread_text``) and
``GET /api/search`` (the SQLite log's index, ``sqlite_fts``) each used to
decide what of a call is searchable, and they differed — the index never held
an aborted call's output nor a word past 256 KiB, the thread search did — so
one word found different calls on the two routes. Both now read these texts.

What a reader may search is what a reader may see, never the record: a call's
arguments (indented JSON, every string redacted), its output (a final result's
text, a refusal's reason, or — running or aborted — the partial text with its
last token held back, ``safety.partial``), a message's text; neutralised and
redacted (``safety.clean_text``), so a secret is never matched nor shown.

The cut, ``SEARCH_CHARS`` per field, is the index's: it bounds the index's
size and the redaction that fills it (5× the append). The thread search keeps
the same cut rather than the index dropping it, because a word must find the
same calls on both routes and the index cannot afford a field's whole 16 MiB;
the whole output is still one fetch away (``/calls/{id}/output``). A field is
redacted with a margin past the cut, so no half of a secret straddling it is kept.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

import msgspec

from toolview.contract import Message, Observation, ToolCall, ToolRefused, ToolResult
from toolview.safety import clean_text, redact_json
from toolview.safety.partial import redact_partial
from toolview.safety.terminal import neutralize_terminal

__all__ = [
    "SEARCH_CHARS",
    "Field",
    "Searchable",
    "args_text",
    "message_text",
    "output_text",
    "running_text",
    "searchable",
]

SEARCH_CHARS: Final = 256 * 1024
_MARGIN: Final = 8192  # render.clean's REDACTION_MARGIN: longer than any credential
Field: TypeAlias = Literal["args", "output", "message"]
Searchable: TypeAlias = tuple[str | None, Field, str]  # (raw call id or None, field, text)


def args_text(args: object) -> str:
    """A call's arguments as indented JSON, every string redacted (keys too), cut."""
    text = msgspec.json.format(msgspec.json.encode(redact_json(args)), indent=2).decode()
    return text[:SEARCH_CHARS]


def output_text(result: ToolResult | ToolRefused, cut: int | None = SEARCH_CHARS) -> str:
    """A call's output: final text, refusal reason, or a partial's with its last token held.

    ``cut=None``: the whole of it, as the output's chunks hand it over (``server.page.calls.data``).
    """
    if isinstance(result, ToolRefused):
        return _clean(result.reason, cut)
    return _clean(result.text, cut) if result.complete else running_text(result.text, cut)


def running_text(text: str, cut: int | None = SEARCH_CHARS) -> str:
    """A running (or aborted) call's output: its last token held back, never half a secret."""
    head = text if cut is None else text[: cut + _MARGIN]
    return redact_partial(neutralize_terminal(head))[:cut]


def message_text(message: Message) -> str:
    """A message's text, cleaned and cut."""
    return _clean(message.text)


def searchable(observation: Observation) -> list[Searchable]:
    """What of ``observation`` a search sees: its fields' texts (none for a run or usage)."""
    if isinstance(observation, ToolCall):
        return [(observation.tool_call_id, "args", args_text(observation.args))]
    if isinstance(observation, ToolResult | ToolRefused):
        return [(observation.tool_call_id, "output", output_text(observation))]
    if isinstance(observation, Message):
        return [(None, "message", message_text(observation))]
    return []


def _clean(text: str, cut: int | None = SEARCH_CHARS) -> str:
    return clean_text(text if cut is None else text[: cut + _MARGIN])[:cut]
