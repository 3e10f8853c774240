"""What a caller hands a recorder, made safe to record: ids, args, results, errors.

Why a visible fallback instead of an exception: a recorder runs inside someone
else's agent; a bad id or an unencodable argument must not break the agent,
and must not vanish either — it shows, marked, in the thread.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolview.contract import Descriptor
from toolview.contract.describe import describe
from toolview.safety import redact
from toolview.safety.structured import redact_json

__all__ = ["call_args", "clean_id", "error_text", "jsonable", "result_parts"]


def clean_id(value: object, fallback: str) -> str:
    """A non-empty ``str`` for an id or name (a ``str`` subclass taken as its value)."""
    text = str(value) if value is not None else ""
    return text if text else fallback


def jsonable(value: object) -> Any:
    """``value`` as plain JSON (what cannot be encoded becomes its ``str``)."""
    return json.loads(json.dumps(value, default=str, ensure_ascii=False))


def call_args(args: object) -> dict[str, Any]:
    """A call's arguments as a redacted JSON object (``{"value": …}`` for a non-mapping)."""
    if args is None:
        return {}
    try:
        plain = jsonable(dict(args) if isinstance(args, Mapping) else {"value": args})
    except Exception as exc:
        plain = {"value": f"<arguments could not be encoded: {type(exc).__name__}>"}
    redacted = redact_json(plain)
    return redacted if isinstance(redacted, dict) else {"value": redacted}


def error_text(exc: BaseException | str) -> str:
    """An error's type and message, redacted — never a traceback."""
    if isinstance(exc, BaseException):
        message = str(exc)
        text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    else:
        text = str(exc)
    return redact(text)


def result_parts(
    value: object, descriptor: Descriptor | None, tool: str
) -> tuple[str, Descriptor | None]:
    """The redacted text and the descriptor of a result (the caller's, else described)."""
    text, found = describe(value, tool=tool)
    if descriptor is not None and isinstance(descriptor, Descriptor):
        found = descriptor
    if found is not None:
        props = redact_json(found.props)
        found = Descriptor(found.kind, props if isinstance(props, dict) else {}, found.truncated)
    return redact(text), found
