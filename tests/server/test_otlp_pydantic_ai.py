"""pydantic-ai's own instrumentation through the real OTLP exporter, shown by ``toolview serve``.

The agent holds no toolview code: it is instrumented the way pydantic-ai
documents (``InstrumentationSettings`` with a tracer provider whose exporter
points at ``/v1/traces``), and runs offline on its own ``FunctionModel``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan
from otlp_spans import at, tracing
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings
from sse_client import SSEFrame, read_frames
from toolview_servers import ToolviewServer

from toolview.cli import main

TOKEN = "otlp-pydantic-token-0123456789"
AUTH = {"authorization": f"Bearer {TOKEN}"}
KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
CALLS = [
    ("read_file", {"path": "notes.txt"}),
    ("fetch_json", {"url": "https://example.com/items", "api_key": KEY}),
    ("boom", {}),
]


def scripted(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """One tool call per turn, in ``CALLS``' order (the last one aborts the run)."""
    turn = sum(1 for message in messages if isinstance(message, ModelResponse))
    name, args = CALLS[turn]
    return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"call-{turn + 1}")])


def make_agent(
    settings: InstrumentationSettings, first_read: threading.Event | None = None
) -> Agent[None, str]:
    """The agent, instrumented; its first tool waits until ``first_read`` is set, if given."""
    agent: Agent[None, str] = Agent(FunctionModel(scripted))
    agent.instrument = settings

    @agent.tool_plain
    def read_file(path: str) -> str:
        if first_read is not None:  # pydantic-ai runs a sync tool in a worker thread
            assert first_read.wait(60), "the follower never saw the first model call"
        return f"contents of {path}"

    @agent.tool_plain
    def fetch_json(url: str, api_key: str) -> dict[str, Any]:
        return {"url": url, "items": [1, 2]}

    @agent.tool_plain
    def boom() -> str:
        raise ValueError("kaboom")

    return agent


def test_a_pydantic_ai_run_shows_its_tool_calls_live(
    served: Callable[..., ToolviewServer],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No toolview code in the agent; its first tool waits for the follower, who sees it live."""
    monkeypatch.setenv("TOOLVIEW_TOKEN", TOKEN)
    server = served("--db", str(tmp_path / "otlp.db"))
    thread_id = "otel-conv-1"
    created = httpx.post(f"{server.url}/api/threads", json={"id": thread_id}, headers=AUTH)
    assert created.status_code == 201
    frames: list[SSEFrame] = []
    first_read = threading.Event()  # the follower has the first model call's usage

    def until(got: list[SSEFrame]) -> bool:
        if got:
            first_read.set()
        return len(got) == 11

    def follow() -> None:
        url = f"{server.url}/api/threads/{thread_id}/follow"
        frames.extend(read_frames(url, headers=AUTH, until=until))

    follower = threading.Thread(target=follow)
    follower.start()
    provider, memory = tracing(server.url, TOKEN)
    agent = make_agent(InstrumentationSettings(tracer_provider=provider), first_read)
    with pytest.raises(ValueError, match="kaboom"):
        agent.run_sync("go", conversation_id="conv-1")
    provider.shutdown()
    follower.join(60)
    want = expected(memory.get_finished_spans())
    assert [frame.data for frame in frames] == want
    events = httpx.get(f"{server.url}/api/threads/{thread_id}/events", headers=AUTH).json()
    assert [event["observation"] for event in events["events"]] == want
    assert KEY not in str(events)
    stored = tmp_path / "thread.jsonl"
    stored.write_text("".join(json.dumps(e["observation"]) + "\n" for e in events["events"]))
    assert main(["check", str(stored)]) == 0
    assert "11 observations checked (3 usage), 0 violations" in capsys.readouterr().err


def expected(spans: tuple[ReadableSpan, ...]) -> list[dict[str, Any]]:
    """Per turn: the model call's usage, its tool call and result; then the run, ended by boom."""
    chats = [span for span in spans if span.name.startswith("chat ")]
    tools = [span for span in spans if span.name.startswith("execute_tool ")]
    assert len(chats) == len(tools) == 3
    results = [
        ("contents of notes.txt", False),
        ('{"url":"https://example.com/items","items":[1,2]}', False),
        ("ValueError: kaboom", True),
    ]
    args = [
        {"path": "notes.txt"},
        {"url": "https://example.com/items", "api_key": "[redacted: api_key]"},
        {},
    ]
    want: list[dict[str, Any]] = []
    for turn, (chat, tool) in enumerate(zip(chats, tools, strict=True)):
        attributes = chat.attributes or {}
        name = CALLS[turn][0]
        text, is_error = results[turn]
        call = {"toolCallId": f"call-{turn + 1}", "toolName": name}
        want += [
            {
                "kind": "usage",
                "at": at(chat.end_time),
                "model": "function:scripted:",  # FunctionModel names itself so
                "inputTokens": attributes["gen_ai.usage.input_tokens"],
                "outputTokens": attributes["gen_ai.usage.output_tokens"],
            },
            {"kind": "tool-call", "at": at(tool.start_time), **call, "args": args[turn]},
            {
                "kind": "tool-result",
                "at": at(tool.end_time),
                **call,
                "text": text,
                "complete": True,
                "isError": is_error,
            },
        ]
    [run] = [span for span in spans if span.name.startswith("invoke_agent ")]
    run_id = (run.attributes or {})["gen_ai.agent.call.id"]
    return [
        *want,
        {"kind": "run-started", "at": at(run.start_time), "runId": run_id},
        {
            "kind": "run-ended",
            "at": at(run.end_time),
            "runId": run_id,
            "outcome": "error",
            "reason": "ValueError: kaboom",
        },
    ]
