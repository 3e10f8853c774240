"""Reading a tool span's attributes: its arguments, its result, its failure.

Attribute values are untrusted and loosely typed: arguments may be a JSON
string, a map, or anything else; a result may be text or structured. Each
reader takes what it is given and always answers something a thread can hold.
A failure's message is the exception's type and message, never its stack.
"""

from __future__ import annotations

import msgspec

from toolview.hosts.otel.spans import SpanStatus, TelemetrySpan

__all__ = ["error_text", "json_args", "result_text"]


def json_args(value: object) -> dict[str, object]:
    """A tool's arguments as a JSON object; anything else is kept under ``"arguments"``."""
    if value is None:
        return {}
    decoded = value
    if isinstance(value, str):
        try:
            decoded = msgspec.json.decode(value)
        except msgspec.DecodeError:
            return {"arguments": value}
    if isinstance(decoded, dict):
        return decoded
    return {"arguments": decoded}


def result_text(value: object) -> str:
    """A tool's result as text: a string as it is, anything structured as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return msgspec.json.encode(value).decode()


def error_text(span: TelemetrySpan) -> str | None:
    """What went wrong, if the span failed: ``"Type: message"``; ``None`` if it did not.

    A span failed when its status is ERROR, it names an ``error.type``, or it
    recorded an exception. The message is the exception event's, else the
    status description, else the error type.
    """
    exception = next((e for e in span.events if e.name == "exception"), None)
    error_type = span.text("error.type")
    if span.status is not SpanStatus.ERROR and error_type is None and exception is None:
        return None
    if exception is not None:
        kind = _text(exception.attributes.get("exception.type"))
        message = _text(exception.attributes.get("exception.message"))
        if kind or message:
            return f"{kind}: {message}" if kind and message else kind or message
    if span.status_message:
        return f"{error_type}: {span.status_message}" if error_type else span.status_message
    return error_type or "the tool failed (its span ended with an error status)"


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
