"""OTLP/HTTP trace bodies in, ``TelemetrySpan`` values out, with the official protobuf types.

Both encodings of OTLP/HTTP: binary protobuf (``application/x-protobuf``) and
OTLP's JSON mapping (``application/json``), which differs from protobuf's own
JSON in one way that matters: trace and span ids are hex, not base64. So the
ids are turned into base64 before ``json_format`` reads the rest (lowerCamel
or original field names, int64 as strings or numbers, enums by name or
number; unknown fields ignored, as OTLP asks of a receiver).

Imported on the first ``POST /v1/traces``, never at start-up (protobuf and the
generated modules take ~0.1 s to import).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Iterator
from typing import Any, Final

import msgspec
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from toolview.hosts.otel import SpanEvent, SpanStatus, TelemetrySpan
from toolview.server.ingest.otlp_body import JSON, PROTOBUF, BadTraces

__all__ = [
    "SPAN_LAYERS",
    "Layers",
    "attributes_of",
    "decode_spans",
    "encode_response",
    "fill",
    "from_protobuf",
    "parse_json",
    "serialize",
    "value_of",
]

Layers = tuple[tuple[str, str], ...]
"""The list fields (lowerCamel, snake) from the request down to the records holding hex ids."""
SPAN_LAYERS: Final[Layers] = (
    ("resourceSpans", "resource_spans"),
    ("scopeSpans", "scope_spans"),
    ("spans", "spans"),
)
_ID_FIELDS: Final = ("traceId", "trace_id", "spanId", "span_id", "parentSpanId", "parent_span_id")


def decode_spans(body: bytes, form: str) -> list[TelemetrySpan]:
    """Every span of the export request in ``body``; ``BadTraces`` if it is not one."""
    request = ExportTraceServiceRequest()
    fill(request, body, form, SPAN_LAYERS)
    return [
        _span(span)
        for resource in request.resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    ]


def encode_response(rejected: int, message: str, form: str) -> bytes:
    """OTLP's answer in the request's encoding; ``partial_success`` counts rejected spans."""
    response = ExportTraceServiceResponse()
    if rejected:
        response.partial_success.rejected_spans = rejected
        response.partial_success.error_message = message
    return serialize(response, form)


def serialize(response: Message, form: str) -> bytes:
    """An OTLP answer in the request's encoding (``JSON`` or ``PROTOBUF``)."""
    if form == JSON:
        return json_format.MessageToJson(response, indent=None).encode()
    return response.SerializeToString()


def fill(request: Message, body: bytes, form: str, layers: Layers) -> None:
    """Fill ``request`` from ``body`` in either encoding; ``BadTraces`` if it is not one."""
    if form == PROTOBUF:
        from_protobuf(body, request)
    else:
        parse_json(body, request, layers)


def from_protobuf(body: bytes, request: Message) -> None:
    """Fill ``request`` from binary protobuf; ``BadTraces`` if it is not one."""
    try:
        request.ParseFromString(body)
    except (DecodeError, RecursionError) as exc:
        name = request.DESCRIPTOR.name
        raise BadTraces(f"not an OTLP {name} in protobuf: {exc}") from None


def parse_json(body: bytes, request: Message, layers: Layers) -> None:
    """Fill ``request`` from OTLP's JSON (hex ids under ``layers``); ``BadTraces`` if not one."""
    name = request.DESCRIPTOR.name
    try:
        document = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise BadTraces(f"malformed JSON: {exc}") from None
    if not isinstance(document, dict):
        raise BadTraces(f'an OTLP JSON body is an object ({{"{layers[0][0]}": [...]}})')
    for holder in _id_holders(document, layers):
        _ids_to_base64(holder)
    try:
        json_format.ParseDict(document, request, ignore_unknown_fields=True)
    except (json_format.ParseError, RecursionError, TypeError, ValueError) as exc:
        raise BadTraces(f"not an OTLP {name} in JSON: {exc}") from None


def _id_holders(holder: dict[str, Any], layers: Layers) -> Iterator[dict[str, Any]]:
    """Every object of the request that holds hex ids: the records (spans, logs) and links."""
    if not layers:
        yield holder
        yield from _objects(holder, "links")
        return
    for item in _objects(holder, *dict.fromkeys(layers[0])):
        yield from _id_holders(item, layers[1:])


def _objects(holder: dict[str, Any], *names: str) -> Iterator[dict[str, Any]]:
    """The objects in ``holder``'s list field (by either name); protobuf checks the rest.

    Why check the items here: ``json_format`` ignoring unknown fields reads a
    string where an object belongs as an empty object, and takes it.
    """
    for name in names:
        items = holder.get(name)
        if not isinstance(items, list):
            continue
        for item in items:
            if not isinstance(item, dict):
                raise BadTraces(f"{name} holds objects, not {type(item).__name__} values")
            yield item


def _ids_to_base64(holder: dict[str, Any]) -> None:
    for name in _ID_FIELDS:
        value = holder.get(name)
        if isinstance(value, str):
            try:
                holder[name] = base64.b64encode(bytes.fromhex(value)).decode()
            except ValueError:
                message = f"{name} must be hex (OTLP's JSON mapping), not {value[:40]!r}"
                raise BadTraces(message) from None


def _span(span: Span) -> TelemetrySpan:
    code = int(span.status.code)  # an unknown number (a newer sender) is no status
    return TelemetrySpan(
        trace_id=span.trace_id.hex(),
        span_id=span.span_id.hex(),
        name=span.name,
        start_ns=span.start_time_unix_nano,
        end_ns=span.end_time_unix_nano,
        attributes=attributes_of(span.attributes),
        status=SpanStatus(code) if 0 <= code <= max(SpanStatus) else SpanStatus.UNSET,
        status_message=span.status.message,
        events=tuple(SpanEvent(e.name, attributes_of(e.attributes)) for e in span.events),
    )


def attributes_of(pairs: Iterable[KeyValue]) -> dict[str, object]:
    """OTLP attributes as a plain dict."""
    return {pair.key: value_of(pair.value) for pair in pairs}


def value_of(value: AnyValue) -> object:
    """An attribute's value as plain Python (bytes as base64 text, as OTLP's JSON writes them)."""
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [value_of(item) for item in value.array_value.values]
    if kind == "kvlist_value":
        return {pair.key: value_of(pair.value) for pair in value.kvlist_value.values}
    if kind == "bytes_value":
        return base64.b64encode(value.bytes_value).decode()
    return getattr(value, kind)
