"""A real MCP server (the SDK's ``MCPServer``) whose tools carry MCP Apps.

``weather`` names a friendly app that speaks the ``ui/*`` bridge and writes
the tool's input and result into its own page; ``hostile`` names an app that
tries every way out of its frame and writes what each attempt got; ``plain``
has no app; ``elsewhere`` names a non-``ui://`` resource (never read).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer

APPS = Path(__file__).with_name("apps")
MIME = "text/html;profile=mcp-app"
CSP = {"ui": {"csp": {"connectDomains": ["https://api.example.com", "evil'; script-src *"]}}}

server = MCPServer("toolview-apps")


@server.tool(meta={"ui": {"resourceUri": "ui://weather/app.html"}})
def weather(city: str) -> str:
    """The weather in a city, with an app to show it."""
    return f"Sunny in {city}, 21 °C"


@server.tool(meta={"ui": {"resourceUri": "ui://hostile/app.html"}})
def hostile(target: str) -> str:
    """A tool whose app tries to escape."""
    return f"looked at {target}"


@server.tool(meta={"ui": {"resourceUri": "https://example.com/app.html"}})
def elsewhere() -> str:
    """A tool naming a UI that is not ui://: never fetched."""
    return "no app here"


@server.tool()
def plain() -> str:
    """A tool without an app."""
    return "just text"


@server.resource("ui://weather/app.html", mime_type=MIME, meta=CSP)
def weather_app() -> str:
    return (APPS / "weather.html").read_text()


@server.resource("ui://hostile/app.html", mime_type=MIME)
def hostile_app() -> str:
    return (APPS / "hostile.html").read_text()


def record(path: Path, *calls: tuple[str, str]) -> Path:
    """``toolview mcp call TOOL --args JSON --json`` against this server, each call's lines
    appended to ``path``: the observations a real call made through the MCP host."""
    with path.open("a") as out:
        for tool, args in calls:
            command = [sys.executable, "-m", "toolview", "mcp", "call", tool, "--args", args]
            command += ["--json", "--", sys.executable, __file__]
            subprocess.run(command, stdout=out, check=True, timeout=180)
    return path


if __name__ == "__main__":
    server.run()
