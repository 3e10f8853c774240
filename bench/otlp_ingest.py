"""What ``POST /v1/traces`` costs beside posting the same observations directly.

A real ``toolview serve`` (SQLite log) is sent, in alternating rounds, an
export of N ``execute_tool`` spans (protobuf, made by the OpenTelemetry SDK's
own encoder; each span becomes a call and its result, appended under its own
idempotency key) and the same 2N observations as one keyed JSON batch to
``/api/threads/{id}/observations``. Then the same export again (a retry: every
span is a replay). Medians of the rounds, and their ratios. Run:
.venv/bin/python bench/otlp_ingest.py [N]
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import msgspec
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from toolview.contract import encode_observation
from toolview.hosts.otel import map_export
from toolview.server.ingest.otlp_decode import decode_spans

ROUNDS = 5


def spans(count: int) -> tuple[ReadableSpan, ...]:
    """``count`` finished tool spans of one trace, each with ~200 B of args and ~2 KB of result."""
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("bench")
    with tracer.start_as_current_span("invoke_agent bench"):
        for n in range(count):
            with tracer.start_as_current_span("execute_tool read_file") as span:
                span.set_attributes(
                    {
                        "gen_ai.operation.name": "execute_tool",
                        "gen_ai.tool.name": "read_file",
                        "gen_ai.tool.call.id": f"call-{n}",
                        "gen_ai.tool.call.arguments": msgspec.json.encode(
                            {"path": "x" * 180}
                        ).decode(),
                        "gen_ai.tool.call.result": f"line {n}\n" * 250,
                    }
                )
    return tuple(s for s in memory.get_finished_spans() if s.name.startswith("execute_tool"))


def serve(db: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "toolview", "serve", "--port", "0", "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        match = re.search(r"serving on (http://\S+?)/?$", line.strip())
        if match:
            return process, match.group(1)
    raise RuntimeError("toolview serve printed no URL")


def timed(post: httpx.Client, url: str, body: bytes, headers: dict[str, str]) -> float:
    start = time.perf_counter()
    answer = post.post(url, content=body, headers=headers)
    elapsed = time.perf_counter() - start
    answer.raise_for_status()
    return elapsed


def main(count: int) -> None:
    made = spans(count)
    export = encode_spans(made).SerializeToString()
    mapped = map_export(decode_spans(export, "application/x-protobuf"))
    batch = (
        b"["
        + b",".join(encode_observation(o) for _, m in mapped.mapped for o in m.observations)
        + b"]"
    )
    protobuf = {"content-type": "application/x-protobuf"}
    with tempfile.TemporaryDirectory() as folder:
        process, url = serve(Path(folder) / "bench.db")
        try:
            with httpx.Client(timeout=300) as client:
                otlp, direct, retry = [], [], []
                for round_ in range(ROUNDS):
                    client.post(f"{url}/api/threads", json={"id": f"direct-{round_}"})
                    keyed = {
                        "content-type": "application/json",
                        "idempotency-key": uuid.uuid4().hex,
                    }
                    direct.append(
                        timed(
                            client, f"{url}/api/threads/direct-{round_}/observations", batch, keyed
                        )
                    )
                    fresh = encode_spans(
                        spans(count)
                    ).SerializeToString()  # a new trace: a new thread
                    otlp.append(timed(client, f"{url}/v1/traces", fresh, protobuf))
                    retry.append(timed(client, f"{url}/v1/traces", fresh, protobuf))
        finally:
            process.terminate()
            process.wait(30)
    o, d, r = (statistics.median(x) for x in (otlp, direct, retry))
    print(f"{count} tool spans, {len(export):,} B of protobuf;", end=" ")
    print(f"{2 * count} observations, {len(batch):,} B of JSON")
    print(f"  POST /v1/traces            {o * 1000:8.1f} ms  ({o / d:.1f}x the direct batch)")
    print(f"  the same export, retried   {r * 1000:8.1f} ms  ({r / d:.1f}x; stores nothing)")
    print(f"  POST …/observations (one)  {d * 1000:8.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 512)
