"""An OTLP/HTTP request's body: which encoding it is in, and its bytes, inflated within the limit.

OTLP/HTTP sends protobuf or JSON, maybe gzip- (or deflate-) compressed (the
Python SDK's exporter does with ``compression=gzip``). The inflated body is
held to the same limit as the sent one: a small compressed body may not
become a large one (a zip bomb is refused as ``BodyTooLarge``, a 413).
"""

from __future__ import annotations

import zlib
from typing import Final

from starlette.datastructures import Headers

from toolview.server.ingest.batch import BodyTooLarge

__all__ = [
    "JSON",
    "OTLP_LOGS_PATH",
    "OTLP_PATH",
    "OTLP_PATHS",
    "OTLP_TYPES",
    "PROTOBUF",
    "BadTraces",
    "UnsupportedBody",
    "body_form",
    "content_encoding",
    "inflate",
]

OTLP_PATH: Final = "/v1/traces"
OTLP_LOGS_PATH: Final = "/v1/logs"
OTLP_PATHS: Final = frozenset({OTLP_PATH, OTLP_LOGS_PATH})
PROTOBUF: Final = "application/x-protobuf"
JSON: Final = "application/json"
OTLP_TYPES: Final = frozenset({PROTOBUF, JSON})
_WBITS: Final = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS, "identity": 0}


class BadTraces(ValueError):
    """The body is not an OTLP export (traces or logs); the message says how (a 400)."""


class UnsupportedBody(ValueError):
    """The body's type or encoding is one OTLP/HTTP does not use here (a 415)."""


def body_form(headers: Headers) -> str:
    """``PROTOBUF`` or ``JSON`` from the one ``Content-Type``; ``UnsupportedBody`` otherwise."""
    sent = headers.getlist("content-type")
    media = sent[0].split(";", 1)[0].strip().lower() if len(sent) == 1 else ""
    if media not in OTLP_TYPES:
        got = "no Content-Type" if not sent else repr(", ".join(sent)[:100])
        raise UnsupportedBody(f"send OTLP as {PROTOBUF} or {JSON}, not {got}")
    return media


def content_encoding(headers: Headers) -> str:
    """``gzip``, ``deflate`` or ``identity``; ``UnsupportedBody`` for anything else."""
    parts = (part for header in headers.getlist("content-encoding") for part in header.split(","))
    sent = [part.strip().lower() for part in parts if part.strip()]
    if not sent:
        return "identity"
    if len(sent) > 1 or sent[0] not in _WBITS:
        raise UnsupportedBody(
            f"Content-Encoding must be gzip, deflate or identity, not {', '.join(sent)[:100]!r}"
        )
    return sent[0]


def inflate(body: bytes, encoding: str, limit: int) -> bytes:
    """``body`` decompressed, refused past ``limit`` bytes; ``BadTraces`` if it does not inflate."""
    if encoding == "identity":
        return body
    inflater = zlib.decompressobj(_WBITS[encoding])
    try:
        inflated = inflater.decompress(body, limit + 1)
    except zlib.error as exc:
        raise BadTraces(f"the body is not valid {encoding}: {exc}") from None
    if len(inflated) > limit:
        raise BodyTooLarge(f"the body inflates past the limit of {limit} bytes")
    if not inflater.eof:
        raise BadTraces(f"the body is truncated {encoding}")
    return inflated
