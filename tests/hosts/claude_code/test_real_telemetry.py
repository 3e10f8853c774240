"""The REAL Claude Code CLI exporting its OpenTelemetry logs to a real ``toolview serve``.

The server reads no file: every call it shows came over ``POST /v1/logs``
(``claude_code.tool_result`` and ``claude_code.api_request`` events, as the
CLI's own OTLP exporter sends them). The thread those events make must hold
the calls the session file the CLI wrote holds: same ids, tool names, order
and failures.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from toolview.contract import ToolCall, ToolResult
from toolview.hosts.claude_code import load_observations

from .claude_cli import run_claude
from .real_session import with_workspace
from .scripted_anthropic import ToolUse, Turn

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "wire"))

from toolview_servers import ToolviewServer

from scripted_agents.surfaces import toolview

TOKEN = "otlp-logs-claude-token-0123456789"
AUTH = {"authorization": f"Bearer {TOKEN}"}
LANE = "TELEMETRY-RUN"


def _bash(call_id: str, command: str) -> ToolUse:
    return ToolUse(call_id, "Bash", {"command": command, "description": command})


def lanes() -> dict[str, list[Turn]]:
    """A shell call, a failing one, a file written, edited, read, and a parallel search."""
    path = "{ws}/notes.md"
    return {
        LANE: [
            Turn(text="Listing.", calls=(_bash("toolu_01ls", "ls"),)),
            Turn(calls=(_bash("toolu_02fail", "ls /no/such/dir"),)),
            Turn(calls=(ToolUse("toolu_03write", "Write", {"file_path": path, "content": "a\n"}),)),
            Turn(
                calls=(
                    ToolUse(
                        "toolu_04edit",
                        "Edit",
                        {"file_path": path, "old_string": "a", "new_string": "b"},
                    ),
                )
            ),
            Turn(calls=(ToolUse("toolu_05read", "Read", {"file_path": "{ws}/missing.txt"}),)),
            Turn(
                calls=(
                    ToolUse("toolu_06grep", "Grep", {"pattern": "b"}),
                    ToolUse("toolu_07glob", "Glob", {"pattern": "*.md"}),
                )
            ),
            Turn(text="Done."),
        ]
    }


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ToolviewServer]:
    """``toolview serve`` with a token, on its own empty database (no session files)."""
    monkeypatch.setenv("TOOLVIEW_TOKEN", TOKEN)
    started = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "logs.db")])
    try:
        yield started
    finally:
        started.kill()


def telemetry(url: str, protocol: str) -> dict[str, str]:
    """Claude Code's documented telemetry settings, exporting logs to ``url``."""
    return {
        "CLAUDE_CODE_ENABLE_TELEMETRY": "1",
        "OTEL_LOGS_EXPORTER": "otlp",
        "OTEL_METRICS_EXPORTER": "none",
        "OTEL_EXPORTER_OTLP_PROTOCOL": protocol,
        "OTEL_EXPORTER_OTLP_ENDPOINT": url,
        "OTEL_EXPORTER_OTLP_HEADERS": f"Authorization=Bearer {TOKEN}",  # sent as is, not decoded
        "OTEL_LOGS_EXPORT_INTERVAL": "500",
        "OTEL_LOG_TOOL_DETAILS": "1",
    }


def calls(observations: list[Any]) -> list[tuple[str, str, bool | None]]:
    """(call id, tool, failed) per call, in call order; ``None`` for a call with no result."""
    results = {o.tool_call_id: o.is_error for o in observations if isinstance(o, ToolResult)}
    return [
        (o.tool_call_id, o.tool_name, results.get(o.tool_call_id))
        for o in observations
        if isinstance(o, ToolCall)
    ]


@pytest.mark.parametrize("protocol", ["http/protobuf", "http/json"])
def test_claude_code_logs_make_the_session_files_calls(
    server: ToolviewServer, tmp_path: Path, protocol: str
) -> None:
    home = tmp_path / "home"
    scripted = with_workspace(lanes(), home / "workspace")
    env = telemetry(server.url, protocol)
    with run_claude(home, scripted, f"{LANE}: make notes.", env=env) as run:
        session = run.session_file()
    from_file = calls(list(load_observations(session)))
    assert [failed for _, _, failed in from_file] == [False, True, False, False, True, False, False]
    thread = f"otel-{run.result['session_id']}"
    answer = httpx.get(f"{server.url}/api/threads/{thread}/events", headers=AUTH)
    assert answer.status_code == 200, answer.text
    observations = [event["observation"] for event in answer.json()["events"]]
    from_logs = [
        (o["toolCallId"], o["toolName"], by_id(observations, o["toolCallId"]))
        for o in observations
        if o["kind"] == "tool-call"
    ]
    # parallel calls (Grep, Glob) are logged as they finish, in either order
    assert sorted(from_logs) == sorted(from_file)
    assert from_logs[:5] == from_file[:5]
    assert any(o["kind"] == "usage" and o["inputTokens"] > 0 for o in observations)
    assert otlp_cost(server, thread) == file_cost(session)


def otlp_cost(server: ToolviewServer, thread: str) -> tuple[object, object, object]:
    """The OTLP thread's models and cost as its index card says them."""
    answer = httpx.get(f"{server.url}/api/threads", headers=AUTH, timeout=60)
    answer.raise_for_status()
    body = answer.json()
    cards = body["threads"] if isinstance(body, dict) else body
    (card,) = [c for c in cards if c["id"] == thread]
    return card["models"], card["costUsd"], card["costText"]


def file_cost(session: Path) -> tuple[object, object, object]:
    """The same session's, from the file the CLI wrote (``sessions --json``)."""
    listed = toolview("sessions", "--json", "--no-cache", "--claude", str(session.parent.parent))
    assert listed.returncode == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    (row,) = [r for r in rows if r["id"] == session.stem]
    assert row["costUsd"] is not None and row["costUsd"] > 0  # a priced model, cached tokens
    return row["models"], row["costUsd"], row["costText"]


def by_id(observations: list[dict[str, Any]], call_id: str) -> bool | None:
    found = [o for o in observations if o["kind"] == "tool-result" and o["toolCallId"] == call_id]
    return found[0].get("isError", False) if len(found) == 1 else None
