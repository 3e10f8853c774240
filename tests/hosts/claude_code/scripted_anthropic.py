"""A scripted Anthropic Messages API server for driving the real Claude Code CLI.

The only fake in the Claude Code tests: a model provider cannot run here. Each
``POST /v1/messages`` is routed to a *lane* — the first lane whose key occurs in
the request's first user message (the main prompt, or the prompt the main agent
gave a sub-agent) — pops that lane's next scripted turn and answers it as the
API does: SSE events (``message_start``, ``content_block_*`` with thinking,
text and ``tool_use`` blocks streamed as ``input_json_delta``, ``message_delta``
with usage, ``message_stop``) when ``stream`` is true, one JSON message when it
is not. A request no lane claims (a side query the CLI makes) and a lane whose
script ran out get a short text answer, so a run always ends. Every request
and every ``tool_result`` block the CLI sent is recorded for assertions.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .anthropic_sse import ToolUse, Turn, sse_events, whole_message

__all__ = ["Request", "Script", "ToolUse", "Turn", "serve"]

GATE_TIMEOUT = 600.0


@dataclass(frozen=True)
class Request:
    """One request the CLI sent: its lane (``None`` = side query) and body."""

    lane: str | None
    body: dict[str, Any]


@dataclass
class Script:
    """Lanes of turns still to play, and what the CLI sent so far."""

    lanes: dict[str, list[Turn]]
    requests: list[Request] = field(default_factory=list)
    tool_results: dict[str, dict[str, Any]] = field(default_factory=dict)
    paths: list[str] = field(default_factory=list)
    lock: threading.Condition = field(default_factory=threading.Condition)

    def next_turn(self, body: dict[str, Any]) -> Turn:
        """Record ``body`` and pop the turn of the lane it belongs to."""
        lane = _lane_of(body, self.lanes)
        with self.lock:
            self.requests.append(Request(lane, body))
            for block in _tool_results(body):
                self.tool_results[str(block.get("tool_use_id"))] = block
            self.lock.notify_all()
            turns = self.lanes.get(lane) if lane is not None else None
            return turns.pop(0) if turns else Turn(text="done.")

    def wait_for_requests(self, count: int, timeout: float) -> bool:
        """Until ``count`` requests have arrived (the agent is then waiting on the last)."""
        with self.lock:
            return self.lock.wait_for(lambda: len(self.requests) >= count, timeout)

    def lane_requests(self, lane: str | None) -> list[dict[str, Any]]:
        """The bodies of the requests routed to ``lane``."""
        with self.lock:
            return [request.body for request in self.requests if request.lane == lane]


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(block.get("text", "")) for block in content if isinstance(block, Mapping)
        )
    return ""


def _lane_of(body: Mapping[str, Any], lanes: Mapping[str, object]) -> str | None:
    messages = body.get("messages") or []
    first = next((m for m in messages if m.get("role") == "user"), None)
    text = _text_of(first.get("content")) if first else ""
    return next((key for key in lanes if key in text), None)


def _tool_results(body: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    for message in body.get("messages") or []:
        content = message.get("content") if message.get("role") == "user" else None
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_result":
                yield block


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _send(self, status: int, kind: str, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:
            script.paths.append(f"POST {self.path}")
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            path = self.path.split("?")[0]
            if path.endswith("/count_tokens"):
                self._send(200, "application/json", b'{"input_tokens": 100}')
                return
            if not path.endswith("/v1/messages"):
                self._send(404, "application/json", b'{"type": "error"}')
                return
            turn = script.next_turn(body)
            number = len(script.requests)
            if turn.gate is not None:
                turn.gate.wait(timeout=GATE_TIMEOUT)
            model = str(body.get("model", "scripted"))
            if body.get("stream"):
                payload = b"".join(sse_events(turn, model, number))
                self._send(200, "text/event-stream", payload)
            else:
                message = whole_message(turn, model, number)
                self._send(200, "application/json", json.dumps(message).encode())

        def do_GET(self) -> None:
            script.paths.append(f"GET {self.path}")
            self._send(404, "application/json", b'{"type": "error"}')

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the tests assert on recorded requests, not on logs."""

    return Handler


@contextmanager
def serve(lanes: Mapping[str, list[Turn]]) -> Iterator[tuple[str, Script]]:
    """Serve ``lanes`` on a free 127.0.0.1 port; yield (base URL, script)."""
    script = Script({key: list(turns) for key, turns in lanes.items()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", script
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
