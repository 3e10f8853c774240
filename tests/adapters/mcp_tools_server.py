"""A real MCP server over stdio for ``rec.mcp(session)``: the shapes the SDK makes.

``echo`` returns a string (the SDK wraps it as ``{"result": …}`` beside its text
block), ``rows`` a list of flat records (wrapped, one text block per row),
``steps`` reports progress before it answers, ``sleepy`` outlasts a client's
timeout, ``leak`` prints a secret and ``fail`` raises (an ``isError`` result).
"""

from __future__ import annotations

import anyio
from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("toolview-test-tools")


@server.tool()
def echo(text: str) -> str:
    """Say ``text`` back."""
    return text


@server.tool()
def rows() -> list[dict[str, object]]:
    """Two records."""
    return [{"name": "a.txt", "size": 12}, {"name": "b.txt", "size": 34}]


@server.tool()
async def steps(count: int, ctx: Context) -> str:
    """Report progress ``count`` times, then answer."""
    for step in range(1, count + 1):
        await ctx.report_progress(step, count, f"step {step}")
    return f"{count} steps done"


@server.tool()
async def sleepy(seconds: float) -> str:
    """Answer after ``seconds`` (the client gives up sooner)."""
    await anyio.sleep(seconds)
    return "awake"


@server.tool()
def leak() -> str:
    """Print a credential (it must not survive the recorder)."""
    return "token ghp_" + "x1Y2z3" * 6


@server.tool()
def fail(why: str) -> str:
    """Raise: the SDK answers with an error result."""
    raise RuntimeError(why)


if __name__ == "__main__":
    server.run("stdio")
