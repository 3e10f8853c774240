"""The shape checks of a user/assistant record, and the stamp every observation gets.

A record whose ``message`` is not an object, or whose ``content`` is neither
text nor a list, cannot be mapped at all: ``SessionLineError`` before anything
changes. The stamp is the record's time (``at``, absent when it is missing or
bad) and, in a sub-agent's mapper, the mark of the call that ran it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from toolview.hosts.sessions import SessionLineError, utc_timestamp

__all__ = ["Stamp", "make_stamp", "plain_text", "read_message"]

Stamp: TypeAlias = dict[str, Any]
"""Keyword arguments every observation of one record is built with (``at``, ``parent_call_id``)."""


def make_stamp(timestamp: object, parent_call_id: str | None) -> Stamp:
    """``at`` from the record's time when it is one, the sub-agent mark when there is one."""
    stamp: Stamp = {}
    at = utc_timestamp(timestamp)
    if at is not None:
        stamp["at"] = at
    if parent_call_id is not None:
        stamp["parent_call_id"] = parent_call_id
    return stamp


def read_message(record: Mapping[str, object]) -> Mapping[str, object]:
    """The record's ``message``, checked: an object whose content is text or a list."""
    message = record.get("message")
    if not isinstance(message, Mapping):
        raise SessionLineError(f"a {record.get('type')} record without a `message` object")
    content = message.get("content")
    if not isinstance(content, str | list):
        raise SessionLineError(
            f"a {record.get('type')} message whose content is not text or a list"
        )
    return message


def plain_text(content: object) -> str:
    """The text of user content: a string, or its text blocks joined (images named)."""
    if isinstance(content, str):
        return content
    pieces: list[str] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, Mapping):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            pieces.append(block["text"])
        elif block.get("type") == "image":
            source = block.get("source")
            mime = source.get("media_type") if isinstance(source, Mapping) else None
            pieces.append(f"[image: {mime if isinstance(mime, str) else 'unknown type'}]")
    return "\n".join(pieces)
