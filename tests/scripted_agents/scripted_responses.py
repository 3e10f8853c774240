"""A scripted OpenAI Responses API server for driving the real Codex CLI.

The only fake in the Codex tests: a model provider cannot run here. Each POST
to ``/v1/responses`` pops the next scripted turn and streams it as the SSE
events the Responses API sends (``response.created``,
``response.output_item.added`` / ``.done`` per item, ``response.completed``
with usage). Items are function calls, custom tool calls (``apply_patch``),
reasoning and assistant text. When the script runs out the model says
"done." so a run always ends. Every request body is recorded, so a test can
read what the CLI sent back (the tool outputs).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .loopback import QuietHandler, loopback

__all__ = [
    "Custom",
    "Function",
    "Reasoning",
    "Script",
    "Text",
    "ToolSearch",
    "Turn",
    "agent_name",
    "serve",
]


@dataclass(frozen=True)
class Function:
    """A function call item: ``name(arguments)`` with the call id (and the
    tool namespace, e.g. ``collaboration`` for the sub-agent tools)."""

    call_id: str
    name: str
    args: dict[str, Any]
    namespace: str | None = None

    def item(self) -> dict[str, Any]:
        item = {
            "type": "function_call",
            "id": f"fc_{self.call_id}",
            "call_id": self.call_id,
            "name": self.name,
            "arguments": json.dumps(self.args),
            "status": "completed",
        }
        return item if self.namespace is None else {**item, "namespace": self.namespace}


@dataclass(frozen=True)
class Custom:
    """A custom (freeform) tool call item, e.g. ``apply_patch`` with a patch."""

    call_id: str
    name: str
    input: str

    def item(self) -> dict[str, Any]:
        return {
            "type": "custom_tool_call",
            "id": f"ctc_{self.call_id}",
            "call_id": self.call_id,
            "name": self.name,
            "input": self.input,
            "status": "completed",
        }


@dataclass(frozen=True)
class ToolSearch:
    """A client-side ``tool_search`` call: Codex looks up deferred (MCP) tools."""

    call_id: str
    query: str

    def item(self) -> dict[str, Any]:
        return {
            "type": "tool_search_call",
            "id": f"tsc_{self.call_id}",
            "call_id": self.call_id,
            "execution": "client",
            "status": "completed",
            "arguments": {"query": self.query, "limit": 8},
        }


@dataclass(frozen=True)
class Reasoning:
    """A reasoning item with one summary text."""

    summary: str

    def item(self) -> dict[str, Any]:
        part = {"type": "summary_text", "text": self.summary}
        return {"type": "reasoning", "id": "rs_scripted", "summary": [part], "content": None}


@dataclass(frozen=True)
class Text:
    """An assistant message item."""

    text: str

    def item(self) -> dict[str, Any]:
        part = {"type": "output_text", "text": self.text, "annotations": []}
        return {
            "type": "message",
            "id": "msg_scripted",
            "role": "assistant",
            "status": "completed",
            "content": [part],
        }


Item = Function | Custom | ToolSearch | Reasoning | Text


@dataclass(frozen=True)
class Turn:
    """One scripted model response: its output items, in order."""

    items: tuple[Item, ...]
    input_tokens: int = 120
    cached_tokens: int = 20
    output_tokens: int = 30


@dataclass
class Script:
    """The turns still to play and the request bodies received so far.

    ``routes`` maps an agent path (``/root/<task_name>``, from the request's
    turn metadata header) to its own turns, so a sub-agent (which talks to the
    same server, concurrently with its parent) gets its own script.
    """

    turns: list[Turn]
    routes: dict[str, list[Turn]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_turn(self, body: dict[str, Any], agent: str) -> Turn:
        with self.lock:
            self.requests.append(body)
            if agent in self.routes:
                turns = self.routes[agent]
                return turns.pop(0) if turns else Turn((Text("sub-agent done."),))
            return self.turns.pop(0) if self.turns else Turn((Text("done."),))


def agent_name(headers: dict[str, str]) -> str:
    """The agent path Codex names in its turn metadata header: ``/root`` for
    the main agent, ``/root/<task_name>`` for a spawned sub-agent."""
    try:
        meta = json.loads(headers.get("x-codex-turn-metadata") or "{}")
    except ValueError:
        return ""
    return str(meta.get("agent_name", "")) if isinstance(meta, dict) else ""


def _event(kind: str, **fields: Any) -> bytes:
    data = json.dumps({"type": kind, **fields})
    return f"event: {kind}\ndata: {data}\n\n".encode()


def sse_events(turn: Turn, response_id: str, model: str) -> Iterator[bytes]:
    """The SSE events of one response, in the order the real API sends them."""
    head = {"id": response_id, "object": "response", "model": model, "status": "in_progress"}
    yield _event("response.created", response=head)
    for index, entry in enumerate(turn.items):
        item = entry.item()
        yield _event("response.output_item.added", output_index=index, item=item)
        if isinstance(entry, Text):
            delta = {"item_id": item["id"], "output_index": index, "content_index": 0}
            yield _event("response.output_text.delta", delta=entry.text, **delta)
        yield _event("response.output_item.done", output_index=index, item=item)
    usage = {
        "input_tokens": turn.input_tokens,
        "input_tokens_details": {"cached_tokens": turn.cached_tokens},
        "output_tokens": turn.output_tokens,
        "output_tokens_details": {"reasoning_tokens": 5},
        "total_tokens": turn.input_tokens + turn.output_tokens,
    }
    done = {**head, "status": "completed", "usage": usage, "output": []}
    yield _event("response.completed", response=done)


def _handler(script: Script) -> type[QuietHandler]:
    counter = iter(range(1, 1_000_000))

    class Handler(QuietHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            headers = {k.lower(): v for k, v in self.headers.items()}
            body["_headers"] = headers
            if not self.path.endswith("/responses"):
                self.send_error(404)
                return
            turn = script.next_turn(body, agent_name(headers))
            model = str(body.get("model", "scripted"))
            payload = b"".join(sse_events(turn, f"resp_{next(counter)}", model))
            self.send_body(payload, "text/event-stream")

    return Handler


@contextmanager
def serve(
    turns: list[Turn], routes: dict[str, list[Turn]] | None = None
) -> Iterator[tuple[str, Script]]:
    """Serve ``turns`` on a free 127.0.0.1 port; yield (base URL, script)."""
    script = Script(list(turns), dict(routes or {}))
    with loopback(_handler(script)) as port:
        yield f"http://127.0.0.1:{port}/v1", script
