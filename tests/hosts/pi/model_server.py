"""A scripted OpenAI-compatible chat-completions server for driving the real pi.

The only fake in the pi tests: a model provider cannot run here. Each POST to
``/v1/chat/completions`` pops the next scripted turn and streams it as SSE
records (``data: {json}``) whose ``choices[0].delta`` carries text or
``tool_calls``, then ``data: [DONE]``. When the script runs out, the model
says "done." so a run always ends. Requests are recorded for assertions.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Call:
    """One scripted tool call: its id, the tool's name and its arguments."""

    id: str
    name: str
    args: dict[str, Any]


@dataclass(frozen=True)
class Turn:
    """One scripted assistant turn: optional thinking (``reasoning_content``), optional
    text, then tool calls (if any)."""

    text: str = ""
    calls: tuple[Call, ...] = ()
    thinking: str = ""


@dataclass
class Script:
    """The turns still to play and the request bodies received so far."""

    turns: list[Turn]
    requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_turn(self, body: dict[str, Any]) -> Turn:
        with self.lock:
            self.requests.append(body)
            return self.turns.pop(0) if self.turns else Turn(text="done.")


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    record = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "model": "scripted",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return b"data: " + json.dumps(record).encode() + b"\n\n"


def sse_records(turn: Turn) -> Iterator[bytes]:
    """The SSE records of one turn, split the way real providers stream."""
    yield _chunk({"role": "assistant", "content": ""})
    if turn.thinking:
        yield _chunk({"reasoning_content": turn.thinking})
    for start in range(0, len(turn.text), 16):
        yield _chunk({"content": turn.text[start : start + 16]})
    for index, call in enumerate(turn.calls):
        arguments = json.dumps(call.args)
        head = {"index": index, "id": call.id, "type": "function"}
        yield _chunk({"tool_calls": [{**head, "function": {"name": call.name, "arguments": ""}}]})
        for start in range(0, len(arguments), 40):
            piece = {"arguments": arguments[start : start + 40]}
            yield _chunk({"tool_calls": [{"index": index, "function": piece}]})
    yield _chunk({}, "tool_calls" if turn.calls else "stop")
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    record = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "choices": []}
    yield b"data: " + json.dumps({**record, "usage": usage}).encode() + b"\n\n"
    yield b"data: [DONE]\n\n"


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            turn = script.next_turn(body)
            payload = b"".join(sse_records(turn))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the tests assert on recorded requests, not on logs."""

    return Handler


@contextmanager
def serve(turns: list[Turn], script: Script | None = None) -> Iterator[tuple[str, Script]]:
    """Serve ``turns`` (or ``script``, a ``Script`` that picks its own turns) on a free
    127.0.0.1 port; yield (base URL, script)."""
    script = Script(list(turns)) if script is None else script
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/v1", script
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
