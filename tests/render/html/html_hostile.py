"""Threads that put one hostile string into EVERY field of EVERY kind.

For each payload: the tool name, the call id, the args (as key and value), the
result text, the descriptor's kind, every string prop of every built-in kind,
an envelope's status, summary and error code (both as result text and as an
``envelope`` descriptor), every MCP content block of a ``blocks`` result, an
error result, a pending partial, refusals (the receipt's tool name, guard,
reason and arguments), and a message. A surface that shows any of them unescaped fails the tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from toolview.contract import Observation, decode_observation
from toolview.contract.thread import Thread

_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4"
    "2mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def _props(payload: str) -> dict[str, dict[str, object]]:
    """A descriptor per kind with ``payload`` in every string prop."""
    envelope = {
        "schemaVersion": "1.0",
        "tool": payload or "x",
        "status": payload,
        "summary": payload,
        "errorCode": payload,
        "data": [{payload: payload, "n": 1}],
    }
    return {
        "shell": {"command": payload, "exitCode": 1, "stdout": payload, "stderr": payload},
        "file": {"path": payload, "content": payload, "language": payload, "startLine": 3},
        "file-py": {"path": "x.py", "content": payload, "language": "python"},
        "diff": {"diff": f"--- a\n+++ b\n@@ -1 +1 @@\n-{payload}\n+{payload}\n", "path": payload},
        "json": {"value": {payload: [payload, {"k": payload}]}},
        "table": {"columns": [payload, "b"], "rows": [[payload, {payload: payload}]]},
        "links": {"links": [{"title": payload, "url": payload, "snippet": payload}]},
        "image": {"mimeType": payload, "data": payload, "alt": payload},
        "image-ok": {"mimeType": "image/png", "data": _PNG, "alt": payload},
        "markdown": {"markdown": f"# {payload}\n\n{payload}\n\n* [{payload}]({payload})"},
        "envelope": envelope,
        "blocks": {"blocks": _blocks(payload), "notes": [payload], "progress": _progress(payload)},
        "blocks-ok": {"blocks": [{"type": "image", "mimeType": "image/png", "data": _PNG}]},
    }


def _progress(payload: str) -> dict[str, object]:
    return {"progress": 1, "total": 2, "message": payload}


def _blocks(payload: str) -> list[dict[str, object]]:
    """Every block type with ``payload`` in every string field (uris included)."""
    p = payload
    return [
        {"type": "text", "text": p},
        {"type": "image", "mimeType": p, "size": 3, "data": p},
        {"type": "image", "mimeType": "image/svg+xml", "data": "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"},
        {"type": "audio", "mimeType": p, "size": 7},
        {"type": "resource_link", "uri": p, "name": p, "title": p, "description": p, "mimeType": p},
        {"type": "resource", "uri": p, "mimeType": p, "text": p},
        {"type": "resource", "uri": p, "blobSize": 9},
        {"type": "unknown", "originalType": p, "json": {p: p}, "reason": p},
        {"type": "ui", "resourceUri": p, "source": "embedded"},
        {"type": "structured", "view": "table", "props": {"columns": [p], "rows": [[p]]}},
        {"type": "structured", "view": "json", "props": {"value": {p: p}}},
        {
            "type": "structured",
            "view": "envelope",
            "props": {"schemaVersion": "1.0", "tool": p or "t", "status": p, "summary": p},
        },
        {"type": "structured", "view": "table", "props": {"columns": [p], "rows": [[p, p]]}},
    ]


def _lines(index: int, payload: str) -> Iterable[dict[str, object]]:
    args = {payload: payload, "nested": {"v": payload}}
    for kind, props in _props(payload).items():
        call_id = f"{index}-{kind}-{payload}"
        yield {"kind": "tool-call", "toolCallId": call_id, "toolName": payload or "t", "args": args}
        yield {
            "kind": "tool-result",
            "toolCallId": call_id,
            "toolName": payload or "t",
            "text": payload,
            "complete": True,
            "isError": False,
            "descriptor": {
                "kind": kind.split("-")[0],
                "props": props,
                "truncated": {"shown": 1, "total": 9, "unit": "lines"},
            },
        }
    base = {"toolName": payload or "t", "complete": True}
    envelope_text = json.dumps(_props(payload)["envelope"])
    extra: list[dict[str, object]] = [
        {
            **base,
            "toolCallId": f"{index}-unknown",
            "text": payload,
            "isError": False,
            "descriptor": {"kind": payload or "k", "props": {payload: payload}},
        },
        {
            **base,
            "toolCallId": f"{index}-bad",
            "text": payload,
            "isError": False,
            "descriptor": {"kind": "shell", "props": {"command": payload}},
        },
        {**base, "toolCallId": f"{index}-env", "text": envelope_text, "isError": False},
        {**base, "toolCallId": f"{index}-err", "text": payload, "isError": True},
        {**base, "toolCallId": f"{index}-plain", "text": payload, "isError": False},
        {
            **base,
            "toolCallId": f"{index}-pend",
            "text": payload,
            "isError": False,
            "complete": False,
        },
    ]
    for result in extra:
        yield {"kind": "tool-result", **result}
    yield {
        "kind": "tool-call",
        "toolCallId": f"{index}-ref",
        "toolName": payload or "t",
        "args": {payload: payload},
    }
    yield {
        "kind": "tool-refused",
        "toolCallId": f"{index}-ref",
        "toolName": payload or "t",
        "reason": payload,
        "guard": payload,
    }
    yield {
        "kind": "tool-refused",
        "toolCallId": f"{index}-ref2-{payload}",
        "toolName": payload or "t",
        "reason": f"{payload}\n{payload}",
    }
    yield {"kind": "message", "role": "assistant", "text": payload}


def hostile_observations(payloads: Iterable[str]) -> list[Observation]:
    """Observations (in one open run) carrying every payload in every field."""
    lines: list[dict[str, object]] = [{"kind": "run-started", "runId": "r"}]
    for index, payload in enumerate(payloads):
        lines.extend(_lines(index, payload))
    return [decode_observation(json.dumps(line)) for line in lines]


def hostile_thread(payloads: Iterable[str]) -> Thread:
    """A thread of ``hostile_observations``, plus a note carrying the first payload."""
    payloads = list(payloads)
    thread = Thread.from_observations(hostile_observations(payloads))
    if payloads:
        thread.note(payloads[0])
    return thread
