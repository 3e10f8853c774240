"""``rec.mcp(session)`` keeps a tool's MCP App with its result, read through the same session.

A real MCP server (``tests/hosts/mcp/app_server.py``, the SDK's ``MCPServer``)
over stdio, the SDK's own ``ClientSession``, ``toolview.capture`` recording.
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

import toolview
from toolview.contract import Descriptor, ToolResult, decode_observation

SERVER = Path(__file__).resolve().parents[1] / "hosts" / "mcp" / "app_server.py"
TIMEOUT = 120.0


async def _calls(record: Path) -> list[str]:
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    texts: list[str] = []
    with anyio.fail_after(TIMEOUT):
        async with (
            toolview.capture(live=False, record=record) as rec,
            stdio_client(params) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            rec.mcp(session)
            for name, arguments in (("weather", {"city": "Bergen"}), ("plain", {})):
                result = await session.call_tool(name, arguments)
                texts.append(result.content[0].text)  # type: ignore[union-attr]
    return texts


def test_rec_mcp_keeps_the_app_and_the_caller_gets_its_result_untouched(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    assert anyio.run(_calls, record) == ["Sunny in Bergen, 21 °C", "just text"]
    finals = {}
    for line in record.read_bytes().splitlines():
        observation = decode_observation(line)
        if isinstance(observation, ToolResult) and observation.complete:
            finals[observation.tool_name] = observation
    weather = finals["weather"].descriptor
    assert isinstance(weather, Descriptor) and weather.kind == "mcp-app"
    assert weather.props["resourceUri"] == "ui://weather/app.html"
    assert "Weather app" in weather.props["html"]
    assert weather.props["toolInput"] == {"city": "Bergen"}
    assert weather.props["toolResult"]["content"][0]["text"] == "Sunny in Bergen, 21 °C"
    assert "Sunny in Bergen, 21 °C" in finals["weather"].text
    plain = finals["plain"].descriptor
    assert not isinstance(plain, Descriptor) or plain.kind != "mcp-app"
