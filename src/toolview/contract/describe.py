"""``describe(value)``: any Python value a tool returned → its text and a descriptor.

Why in the contract: it is pure (no I/O) and both sides of a producer need one
rule — ``capture()`` and the framework adapters map a tool's return value
through it, and the MCP host infers the view of ``structuredContent`` with the
same ``structured_view``. It never raises: a value it cannot read shows as a
marked line naming its type.

- ``str`` (a subclass too) → the text; an envelope in JSON text → ``envelope``;
  with ``args`` naming a ``path`` and a tool named like a read (``read_file``,
  ``cat``, ``view``…), → ``file``.
- ``bytes`` of a PNG/JPEG/GIF/WebP, or a PIL-like image → ``image``.
- an exception → ``Type: message`` (no traceback).
- ``dict``/``list``/tuple/set, pydantic models, dataclasses, msgspec Structs →
  their JSON: ``envelope``, ``table`` (a list of flat records) or ``json``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract.descriptor import Descriptor, Truncation
from toolview.contract.envelope import parse_envelope
from toolview.contract.images import image_of
from toolview.contract.jsontext import pretty_json
from toolview.contract.kinds import FileProps
from toolview.contract.plain import bounded, to_plain
from toolview.contract.structured import structured_view

__all__ = ["describe"]

_READ_VERB: Final = re.compile(r"^(?:read|cat|view|open|show|get)(?:$|[_\-. ]?file|[_\-. ])", re.I)
_PATH_KEYS: Final = ("path", "file_path", "filepath", "filename", "file")


def describe(
    value: object, *, tool: str | None = None, args: Mapping[str, object] | None = None
) -> tuple[str, Descriptor | None]:
    """``(text, descriptor or None)`` for ``value``; never raises."""
    try:
        return _describe(value, tool, args)
    except Exception as exc:  # a hostile __str__, a property that raises: marked, not lost
        return f"<{_type_name(value)}: could not be described ({type(exc).__name__})>", None


def _describe(
    value: object, tool: str | None, args: Mapping[str, object] | None
) -> tuple[str, Descriptor | None]:
    if isinstance(value, str):
        return _text(str(value), tool, args)
    if isinstance(value, BaseException):
        message = str(value)
        return (f"{type(value).__name__}: {message}" if message else type(value).__name__), None
    if value is None:
        return "", None
    image = image_of(value, alt=tool)
    if image is not None:
        return image
    if isinstance(value, bytes | bytearray | memoryview):
        return _bytes(bytes(value))
    if isinstance(value, bool | int | float):
        return pretty_json(value), None
    return _structured(value)


def _text(
    text: str, tool: str | None, args: Mapping[str, object] | None
) -> tuple[str, Descriptor | None]:
    stripped = text.lstrip()
    if stripped.startswith("{") and parse_envelope(text) is not None:
        return _structured(msgspec.json.decode(text))
    path = _read_path(tool, args)
    if path is not None:
        return text, Descriptor("file", FileProps(path=path, content=text))
    return text, None


def _read_path(tool: str | None, args: Mapping[str, object] | None) -> str | None:
    """The file a read-like tool read, from its arguments; ``None`` for any other call."""
    if not tool or not isinstance(args, Mapping) or not _READ_VERB.match(str(tool)):
        return None
    for key in _PATH_KEYS:
        path = args.get(key)
        if isinstance(path, str) and path:
            return str(path)
    return None


def _bytes(data: bytes) -> tuple[str, Descriptor | None]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return f"<{len(data)} bytes of binary data>", None


def _structured(value: object) -> tuple[str, Descriptor | None]:
    plain = to_plain(value)
    if isinstance(plain, str):  # an object taken as its str by the hook
        return plain, None
    shown, cut = bounded(plain)
    view, props, table_cut = structured_view(shown)
    total = cut.total if cut is not None else None
    truncated = table_cut or cut
    if truncated is not None and total is not None and truncated.total != total:
        truncated = Truncation(shown=truncated.shown, total=total, unit="items")
    fields = {"truncated": truncated} if truncated is not None else {}
    return pretty_json(shown), Descriptor(view, props, **fields)


def _type_name(value: object) -> str:
    try:
        return type(value).__name__
    except Exception:
        return "object"
