"""``rec.mcp(session)``: a real MCP server over stdio, every ``call_tool`` recorded.

The server (``mcp_tools_server.py``) is the SDK's own ``MCPServer``: a string
return comes back wrapped as ``{"result": …}`` beside its text block, a list
of records as one text block per record, progress as notifications.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, TextIO

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

import toolview
from toolview.contract import Descriptor, ToolResult, decode_observation

SERVER = Path(__file__).with_name("mcp_tools_server.py")
_DEVNULL: list[TextIO] = []


def _quiet() -> TextIO:
    """Where the server's stderr goes (its tracebacks for ``fail`` are expected)."""
    if not _DEVNULL:
        _DEVNULL.append(open(os.devnull, "w"))  # noqa: SIM115 - lives as long as the tests
    return _DEVNULL[0]


TIMEOUT = 120.0


async def _session_calls(record: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    heard: list[float] = []
    returned: list[Any] = []

    async def mine(progress: float, total: float | None, message: str | None) -> None:
        heard.append(progress)

    with anyio.fail_after(TIMEOUT):
        async with (
            toolview.capture(live=False, record=record) as rec,
            stdio_client(params, errlog=_quiet()) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            assert rec.mcp(session) is session
            rec.mcp(session)  # twice: still recorded once
            for name, arguments in calls:
                callback = mine if name == "steps" else None
                returned.append(
                    await session.call_tool(name, arguments, progress_callback=callback)
                )
    returned.append(heard)
    return returned


def _results(record: Path) -> dict[str, ToolResult]:
    """The final result of each tool, by tool name."""
    finals = {}
    for line in record.read_bytes().splitlines():
        observation = decode_observation(line)
        if isinstance(observation, ToolResult) and observation.complete:
            finals[observation.tool_name] = observation
    return finals


def test_every_call_is_recorded_through_the_mcp_mapping(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    calls = [
        ("echo", {"text": "hello there"}),
        ("rows", {}),
        ("steps", {"count": 3}),
        ("leak", {}),
        ("fail", {"why": "out of cheese"}),
    ]
    *returned, heard = anyio.run(_session_calls, record, calls)
    assert returned[0].structured_content == {"result": "hello there"}  # the SDK's wrapping
    assert heard == [1, 2, 3]  # the caller's own callback still hears every notification

    observations = [decode_observation(line) for line in record.read_bytes().splitlines()]
    kinds = [type(o).__name__ for o in observations]
    assert kinds.count("ToolCall") == 5 and kinds[0] == "RunStarted" and kinds[-1] == "RunEnded"
    results = _results(record)

    echo = results["echo"]
    assert echo.text == "hello there" and echo.descriptor is not None  # shown once, as text
    assert "result" not in echo.text

    rows = results["rows"]
    assert rows.descriptor == Descriptor(
        "table", {"columns": ["name", "size"], "rows": [["a.txt", 12], ["b.txt", 34]]}
    )
    assert "structured content" not in rows.text

    partials = [
        o
        for o in observations
        if isinstance(o, ToolResult) and o.tool_name == "steps" and not o.complete
    ]
    # a running call's last, unterminated token is held back, as the server holds it
    # (safety.partial): the step number goes with the next update or the final result
    assert [p.text.splitlines()[-1] for p in partials] == [
        "progress 1/3 step ",
        "progress 2/3 step ",
        "progress 3/3 step ",
    ]
    assert results["steps"].text == "3 steps done"

    assert "ghp_" not in record.read_text() and "[redacted: github-token]" in results["leak"].text
    assert results["fail"].is_error

    checked = subprocess.run(
        [sys.executable, "-m", "toolview", "check", "--strict", str(record)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout


def test_a_call_that_raises_closes_as_an_error_and_raises_on(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"

    async def run() -> None:
        params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
        with anyio.fail_after(TIMEOUT):
            async with (
                toolview.capture(live=False, record=record) as rec,
                stdio_client(params, errlog=_quiet()) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                rec.mcp(session)
                unknown = await session.call_tool("no_such_tool", {})
                assert unknown.is_error  # the SDK answers, it does not raise
                await session.call_tool("sleepy", {"seconds": 60}, read_timeout_seconds=0.5)

    with pytest.raises(Exception) as raised:  # the SDK's own error, unchanged
        anyio.run(run)
    results = _results(record)
    assert results["no_such_tool"].is_error
    assert results["sleepy"].is_error
    leaf = raised.value
    while isinstance(leaf, BaseExceptionGroup):
        leaf = leaf.exceptions[0]
    assert results["sleepy"].text.startswith(type(leaf).__name__)
