"""What ``POST /v1/traces`` costs beside posting the same observations directly.

A real ``toolview serve`` (SQLite log) is sent, in alternating rounds, an
export of N ``execute_tool`` spans (protobuf, made by the OpenTelemetry SDK's
own encoder; each span becomes a call and its result, appended under its own
idempotency key) and the same 2N observations as one keyed JSON batch to
``/api/threads/{id}/observations``. Then the same export again (a retry: every
span is a replay). Medians of the rounds, and their ratios: of the request's
wall time and of the server's CPU (its threads' time on a CPU, from
``/proc/<pid>/task/*/schedstat``: a busy machine's waits do not count).
``--src DIR`` (repeatable) serves each ``src`` folder given (e.g. an older
checkout's) in the same rounds, side by side. Run:
.venv/bin/python bench/otlp_ingest.py [N] [--src DIR ...] [--rounds R]
"""

from __future__ import annotations

import argparse
import contextlib
import os
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
HERE = Path(__file__).resolve().parent


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


def serve(db: Path, src: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-c", "from toolview.cli import main; main()", "serve"]
    env = {**os.environ, "PYTHONPATH": str(src)}
    process = subprocess.Popen(
        [*command, "--port", "0", "--db", str(db)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None
    for line in process.stdout:
        match = re.search(r"serving on (http://\S+?)/?$", line.strip())
        if match:
            return process, match.group(1)
    raise RuntimeError("toolview serve printed no URL")


def cpu(pid: int) -> float:
    """The process's CPU so far, seconds: its threads' time on a CPU (``schedstat``, in ns).

    ``/proc/<pid>/stat`` counts 10 ms ticks: too coarse for a 60 ms request.
    """
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


class Server:
    """One ``toolview serve`` of one ``src``, and what its requests cost."""

    def __init__(self, src: Path, db: Path) -> None:
        self.src = src
        self.process, self.url = serve(db, src)
        self.times: dict[str, list[tuple[float, float]]] = {"otlp": [], "direct": [], "retry": []}

    def timed(
        self, post: httpx.Client, row: str, path: str, body: bytes, headers: dict[str, str]
    ) -> None:
        """Post ``body``; keep its wall time and the server's CPU for it."""
        used = cpu(self.process.pid)
        start = time.perf_counter()
        answer = post.post(f"{self.url}{path}", content=body, headers=headers)
        elapsed = time.perf_counter() - start
        answer.raise_for_status()
        self.times[row].append((elapsed, cpu(self.process.pid) - used))

    def report(self) -> None:
        wall = {row: statistics.median(t for t, _ in x) for row, x in self.times.items()}
        used = {row: statistics.median(c for _, c in x) for row, x in self.times.items()}
        d, dc = wall["direct"], used["direct"]
        print(f"{self.src}:")
        for row, label in (("otlp", "POST /v1/traces"), ("retry", "the same export, retried")):
            w, c = wall[row], used[row]
            print(f"  {label:28} {w * 1000:7.1f} ms ({w / d:.2f}x)", end="  ")
            print(f"server CPU {c * 1000:6.0f} ms ({c / dc:.2f}x)")
        print(f"  {'POST …/observations (one)':28} {d * 1000:7.1f} ms", end="          ")
        print(f"server CPU {dc * 1000:6.0f} ms")


def main(count: int, sources: list[Path], rounds: int = ROUNDS) -> None:
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
        servers = [Server(src, Path(folder) / f"bench{n}.db") for n, src in enumerate(sources)]
        try:
            with httpx.Client(timeout=300) as client:
                for round_ in range(rounds):
                    fresh = encode_spans(
                        spans(count)
                    ).SerializeToString()  # a new trace: a new thread
                    for server in servers:
                        client.post(f"{server.url}/api/threads", json={"id": f"direct-{round_}"})
                        keyed = {
                            "content-type": "application/json",
                            "idempotency-key": uuid.uuid4().hex,
                        }
                        path = f"/api/threads/direct-{round_}/observations"
                        server.timed(client, "direct", path, batch, keyed)
                        server.timed(client, "otlp", "/v1/traces", fresh, protobuf)
                        server.timed(client, "retry", "/v1/traces", fresh, protobuf)
        finally:
            for server in servers:
                server.process.terminate()
                server.process.wait(30)
    print(f"{count} tool spans, {len(export):,} B of protobuf;", end=" ")
    print(f"{2 * count} observations, {len(batch):,} B of JSON; median of {rounds} rounds")
    for server in servers:
        server.report()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, nargs="?", default=512)
    parser.add_argument("--src", type=Path, action="append")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    main(args.count, args.src or [HERE.parent / "src"], args.rounds)
