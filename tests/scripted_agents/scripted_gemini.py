"""A scripted Gemini API server for driving the real Gemini CLI.

The only fake in the Gemini tests: a model cannot run here. The CLI's
"gateway" auth (``GOOGLE_GEMINI_BASE_URL``) posts each model turn to
``/v1beta/models/<model>:streamGenerateContent?alt=sse``; every such POST pops
the next scripted turn and streams it as the SSE ``data:`` chunks the API
sends (``candidates[0].content.parts`` with ``functionCall`` or ``text``
parts, ``usageMetadata`` on the last). When the script runs out the model
says "done." so a run always ends. A plain ``:generateContent`` (the CLI's
side questions) answers a short text; ``:countTokens`` a count. Every request
is recorded with its path, so a test can read what the CLI sent back.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .loopback import QuietHandler, loopback

__all__ = ["Call", "GeminiScript", "GeminiTurn", "Say", "Think", "serve_gemini"]


@dataclass(frozen=True)
class Call:
    """A ``functionCall`` part: the model calls ``name(args)``."""

    name: str
    args: dict[str, Any]

    def part(self) -> dict[str, Any]:
        return {"functionCall": {"name": self.name, "args": self.args}}


@dataclass(frozen=True)
class Say:
    """A text part: what the model says."""

    text: str

    def part(self) -> dict[str, Any]:
        return {"text": self.text}


@dataclass(frozen=True)
class Think:
    """A thought part (``thought: true``), which the CLI records as the message's thoughts."""

    text: str

    def part(self) -> dict[str, Any]:
        return {"text": self.text, "thought": True}


@dataclass(frozen=True)
class GeminiTurn:
    """One scripted model response: its parts, in order."""

    parts: tuple[Call | Say | Think, ...]
    prompt_tokens: int = 150
    output_tokens: int = 25


@dataclass
class GeminiScript:
    """The turns still to play and the requests received so far (path, body)."""

    turns: list[GeminiTurn]
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_turn(self, path: str, body: dict[str, Any]) -> GeminiTurn:
        with self.lock:
            self.requests.append((path, body))
            return self.turns.pop(0) if self.turns else GeminiTurn((Say("done."),))


def sse_chunks(turn: GeminiTurn, model: str) -> Iterator[bytes]:
    """The SSE chunks of one response: one per part, usage and finish on the last."""
    for index, entry in enumerate(turn.parts):
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": [entry.part()]}}
        candidate["index"] = 0
        chunk: dict[str, Any] = {"candidates": [candidate], "modelVersion": model}
        if index == len(turn.parts) - 1:
            candidate["finishReason"] = "STOP"
            chunk["usageMetadata"] = {
                "promptTokenCount": turn.prompt_tokens,
                "candidatesTokenCount": turn.output_tokens,
                "totalTokenCount": turn.prompt_tokens + turn.output_tokens,
            }
        yield f"data: {json.dumps(chunk)}\r\n\r\n".encode()


def _handler(script: GeminiScript) -> type[QuietHandler]:
    class Handler(QuietHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            model = self.path.split("/models/")[-1].split(":")[0]
            if ":streamGenerateContent" in self.path:
                turn = script.next_turn(self.path, body)
                self.send_body(b"".join(sse_chunks(turn, model)), "text/event-stream")
            elif ":countTokens" in self.path:
                self.send_body(json.dumps({"totalTokens": 10}).encode(), "application/json")
            elif ":generateContent" in self.path:
                with script.lock:
                    script.requests.append((self.path, body))
                text = json.dumps({"reasoning": "scripted", "next_speaker": "user"})
                parts = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}}]}
                self.send_body(json.dumps(parts).encode(), "application/json")
            else:
                self.send_error(404)

    return Handler


@contextmanager
def serve_gemini(turns: list[GeminiTurn]) -> Iterator[tuple[str, GeminiScript]]:
    """Serve ``turns`` on a free 127.0.0.1 port; yield (base URL, script)."""
    script = GeminiScript(list(turns))
    with loopback(_handler(script)) as port:
        yield f"http://127.0.0.1:{port}", script
