"""Reading untrusted rollout records: typed getters that never raise.

A rollout line is whatever some Codex version wrote (and the format drifts),
so every field is checked for its type where it is read; a wrong type reads
as absent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

__all__ = [
    "as_map",
    "as_str",
    "content_text",
    "json_object",
]


def as_map(value: object) -> Mapping[str, object]:
    """``value`` if it is a JSON object, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def as_str(value: object) -> str | None:
    """``value`` if it is a non-empty string."""
    return value if isinstance(value, str) and value else None


def content_text(content: object, *, kinds: frozenset[str] | None = None) -> str:
    """The text parts of a message's ``content`` joined by blank lines.

    A part counts when its ``type`` is in ``kinds`` (any typed part with a
    ``text`` when ``kinds`` is None); a plain string is its own text. An image
    part or an encrypted one is named, not dropped: ``[image]``,
    ``[encrypted content]``.
    """
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, str):
            parts.append(part)
            continue
        part = as_map(part)
        kind, text = as_str(part.get("type")), part.get("text")
        if isinstance(text, str) and (kinds is None or kind in kinds):
            parts.append(text)
        elif kind in ("input_image", "image"):
            parts.append("[image]")
        elif kind == "encrypted_content":
            parts.append("[encrypted content]")
    return "\n\n".join(part for part in parts if part)


def json_object(raw: object) -> dict[str, object] | None:
    """A JSON object from a string holding one (function-call arguments), else None."""
    if isinstance(raw, Mapping):
        return dict(raw)
    if not isinstance(raw, str):
        return None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
