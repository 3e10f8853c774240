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
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from toolview.hosts.otel import SpanEvent, SpanStatus, TelemetrySpan
from toolview.server.ingest.otlp_body import JSON, PROTOBUF, BadTraces

__all__ = ["decode_spans", "encode_response"]

_ID_FIELDS: Final = ("traceId", "trace_id", "spanId", "span_id", "parentSpanId", "parent_span_id")


def decode_spans(body: bytes, form: str) -> list[TelemetrySpan]:
    """Every span of the export request in ``body``; ``BadTraces`` if it is not one."""
    request = _from_protobuf(body) if form == PROTOBUF else _from_json(body)
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
    if form == JSON:
        return json_format.MessageToJson(response, indent=None).encode()
    return response.SerializeToString()


def _from_protobuf(body: bytes) -> ExportTraceServiceRequest:
    try:
        return ExportTraceServiceRequest.FromString(body)
    except (DecodeError, RecursionError) as exc:
        raise BadTraces(f"not an OTLP ExportTraceServiceRequest in protobuf: {exc}") from None


def _from_json(body: bytes) -> ExportTraceServiceRequest:
    try:
        document = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise BadTraces(f"malformed JSON: {exc}") from None
    if not isinstance(document, dict):
        raise BadTraces('an OTLP JSON body is an object ({"resourceSpans": [...]})')
    for holder in _id_holders(document):
        _ids_to_base64(holder)
    try:
        request = ExportTraceServiceRequest()
        return json_format.ParseDict(document, request, ignore_unknown_fields=True)
    except (json_format.ParseError, RecursionError, TypeError, ValueError) as exc:
        raise BadTraces(f"not an OTLP ExportTraceServiceRequest in JSON: {exc}") from None


def _id_holders(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every object of the request that holds hex ids: spans and their links."""
    for resource in _objects(document, "resourceSpans", "resource_spans"):
        for scope in _objects(resource, "scopeSpans", "scope_spans"):
            for span in _objects(scope, "spans"):
                yield span
                yield from _objects(span, "links")


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
        attributes=_attributes(span.attributes),
        status=SpanStatus(code) if 0 <= code <= max(SpanStatus) else SpanStatus.UNSET,
        status_message=span.status.message,
        events=tuple(SpanEvent(e.name, _attributes(e.attributes)) for e in span.events),
    )


def _attributes(pairs: Iterable[KeyValue]) -> dict[str, object]:
    return {pair.key: _value(pair.value) for pair in pairs}


def _value(value: AnyValue) -> object:
    """An attribute's value as plain Python (bytes as base64 text, as OTLP's JSON writes them)."""
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [_value(item) for item in value.array_value.values]
    if kind == "kvlist_value":
        return {pair.key: _value(pair.value) for pair in value.kvlist_value.values}
    if kind == "bytes_value":
        return base64.b64encode(value.bytes_value).decode()
    return getattr(value, kind)
