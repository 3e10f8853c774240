"""``toolview show`` input: a pi session file or a ``--mode json`` capture.

Both are JSON Lines that start with pi's session header; a session file goes
on with tree entries (``message``, ``custom``…), a capture with live events
(``agent_start``, ``tool_execution_*``…), which is how the two are told apart.
A line that is not JSON is an error naming the line, never skipped silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Observation
from toolview.hosts.pi.events import PiEventMapper
from toolview.hosts.pi.results import PiFormatError
from toolview.hosts.pi.session import SESSION_ENTRY_TYPES, session_observations

__all__ = ["load_observations", "sniff"]

EVENT_TYPES: Final = frozenset(
    {
        "agent_start",
        "agent_end",
        "turn_start",
        "turn_end",
        "message_start",
        "message_update",
        "message_end",
        "tool_execution_start",
        "tool_execution_update",
        "tool_execution_end",
        "response",
        "extension_ui_request",
    }
)
_SNIFF_LINES: Final = 5
_JSON: Final = msgspec.json.Decoder()


def _decode(data: bytes) -> list[Mapping[str, object]]:
    records: list[Mapping[str, object]] = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            record = _JSON.decode(line)
        except msgspec.DecodeError as exc:
            raise PiFormatError(f"line {number}: not JSON ({exc})") from None
        except (UnicodeError, RecursionError, ValueError):
            raise PiFormatError(f"line {number}: not UTF-8 JSON within bounds") from None
        if not isinstance(record, Mapping):
            raise PiFormatError(f"line {number}: not a JSON object")
        records.append(record)
    return records


def sniff(data: bytes) -> bool:
    """Whether ``data`` looks like a pi session file or a pi event capture."""
    head = [line for line in data[:65536].split(b"\n")[:_SNIFF_LINES] if line.strip()]
    types = []
    for line in head:
        try:
            record = _JSON.decode(line)
        except (msgspec.DecodeError, UnicodeError, RecursionError, ValueError):
            continue  # a partial last line of the sniffed window
        if isinstance(record, dict):
            types.append(record.get("type"))
    if not types:
        return False
    specific = EVENT_TYPES - {"response"}
    return types[0] == "session" or any(kind in specific for kind in types)


def load_observations(data: bytes, *, kinds: bool = True) -> list[Observation]:
    """The observations of a pi session file or ``--mode json``/RPC capture.

    ``kinds`` maps pi's known tools onto toolview's kinds (what a person
    wants to see); ``kinds=False`` keeps the floor descriptors.
    """
    records = _decode(data)
    if any(_entry_type(record) in SESSION_ENTRY_TYPES for record in records):
        return session_observations(records, kinds=kinds)
    mapper = PiEventMapper(kinds=kinds)
    out: list[Observation] = []
    for number, record in enumerate(records, start=1):
        try:
            out.extend(mapper.feed(record))
        except PiFormatError as exc:
            raise PiFormatError(f"record {number}: {exc}") from None
    out.extend(mapper.close("the capture ends before the run did"))
    return out


def _entry_type(record: Mapping[str, object]) -> str | None:
    kind = record.get("type")
    return kind if isinstance(kind, str) else None
