"""The structured envelope a tool may return, parsed as untrusted input.

``{schemaVersion, tool, status, data?, summary?, errorCode?}``. The parser takes
anything (str, bytes, dict, junk), bounds its own cost (size, nesting depth and
node count), accepts unknown minor versions of major 1, and returns ``None``
for everything else. It never raises. Unknown fields are kept for diagnostics
only, and only after secret redaction.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

import msgspec

from toolview.contract.types import JSONObject, JSONValue, NonEmptyStr
from toolview.safety import redact_json

__all__ = [
    "ENVELOPE_MAX_BYTES",
    "ENVELOPE_MAX_DEPTH",
    "ENVELOPE_MAX_NODES",
    "SUPPORTED_MAJOR",
    "Envelope",
    "parse_envelope",
]

ENVELOPE_MAX_BYTES: Final = 1024 * 1024
ENVELOPE_MAX_DEPTH: Final = 64
ENVELOPE_MAX_NODES: Final = 200_000
SUPPORTED_MAJOR: Final = 1
_VERSION = re.compile(r"(\d{1,9})\.(\d{1,9})")
_KNOWN_FIELDS: Final = frozenset(
    {"schemaVersion", "tool", "status", "data", "summary", "errorCode"}
)
_DECODER = msgspec.json.Decoder()


class Envelope(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """A tool's structured output. ``diagnostics`` holds its unknown fields, redacted."""

    schema_version: str
    tool: NonEmptyStr
    status: str
    data: JSONValue | msgspec.UnsetType = msgspec.UNSET
    summary: str | msgspec.UnsetType = msgspec.UNSET
    error_code: str | msgspec.UnsetType = msgspec.UNSET
    diagnostics: JSONObject | msgspec.UnsetType = msgspec.UNSET


def parse_envelope(raw: object) -> Envelope | None:
    """Parse ``raw`` as an envelope, or return ``None``; never raises."""
    try:
        document = _load(raw)
        if not isinstance(document, dict) or not _within_bounds(document):
            return None
        return _build(document)
    except Exception:
        return None


def _load(raw: object) -> object:
    if isinstance(raw, str):
        if len(raw) > ENVELOPE_MAX_BYTES or not raw.lstrip().startswith("{"):
            return None
        raw = raw.encode("utf-8")
    if isinstance(raw, bytes | bytearray | memoryview):
        data = bytes(raw)
        if len(data) > ENVELOPE_MAX_BYTES or not data.lstrip().startswith(b"{"):
            return None
        try:
            return _DECODER.decode(data)
        except (msgspec.DecodeError, RecursionError):
            return None
    if isinstance(raw, Mapping):
        return dict(raw)
    return None


def _within_bounds(document: dict[str, Any]) -> bool:
    """Iteratively check depth and node count: no recursion, bounded work."""
    stack: list[tuple[object, int]] = [(document, 1)]
    nodes = 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if depth > ENVELOPE_MAX_DEPTH or nodes > ENVELOPE_MAX_NODES:
            return False
        if isinstance(value, dict):
            stack.extend((child, depth + 1) for child in value.values())
        elif isinstance(value, list | tuple):
            stack.extend((child, depth + 1) for child in value)
    return True


def _build(document: dict[str, Any]) -> Envelope | None:
    version = document.get("schemaVersion")
    if not isinstance(version, str):
        return None
    match = _VERSION.fullmatch(version)
    if match is None or int(match.group(1)) != SUPPORTED_MAJOR:
        return None
    known = {key: value for key, value in document.items() if key in _KNOWN_FIELDS}
    unknown = {str(key): value for key, value in document.items() if key not in _KNOWN_FIELDS}
    if unknown:
        known["diagnostics"] = redact_json(unknown)
    try:
        return msgspec.convert(known, Envelope, strict=True)
    except msgspec.ValidationError:
        return None
