"""OTLP/HTTP log bodies in, ``TelemetryLog`` values out, with the official protobuf types.

The same two encodings and rules as traces (``otlp_decode``): protobuf, or
OTLP's JSON with hex ids. A record's time is its ``timeUnixNano``, else the
time the exporter observed it. Imported on the first ``POST /v1/logs``.
"""

from __future__ import annotations

from typing import Final

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (
    ExportLogsServiceRequest,
    ExportLogsServiceResponse,
)

from toolview.hosts.otel.logs import TelemetryLog
from toolview.server.ingest.otlp_decode import (
    Layers,
    attributes_of,
    fill,
    serialize,
    value_of,
)

__all__ = ["decode_logs", "encode_logs_response"]

_LAYERS: Final[Layers] = (
    ("resourceLogs", "resource_logs"),
    ("scopeLogs", "scope_logs"),
    ("logRecords", "log_records"),
)


def decode_logs(body: bytes, form: str) -> list[TelemetryLog]:
    """Every log record of the export request in ``body``; ``BadTraces`` if it is not one."""
    request = ExportLogsServiceRequest()
    fill(request, body, form, _LAYERS)
    return [
        TelemetryLog(
            time_ns=record.time_unix_nano or record.observed_time_unix_nano,
            body=value_of(record.body),
            attributes=attributes_of(record.attributes),
        )
        for resource in request.resource_logs
        for scope in resource.scope_logs
        for record in scope.log_records
    ]


def encode_logs_response(rejected: int, message: str, form: str) -> bytes:
    """OTLP's answer in the request's encoding; ``partial_success`` counts rejected records."""
    response = ExportLogsServiceResponse()
    if rejected:
        response.partial_success.rejected_log_records = rejected
        response.partial_success.error_message = message
    return serialize(response, form)
