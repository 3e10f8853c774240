"""A real MCP server over stdio whose tools ask the person (``elicitation/create``).

``book`` asks with the SDK's own ``ctx.elicit`` (a pydantic model: the spec's
flat primitive form) and says what it got; ``nested`` asks with a hostile
schema (an object inside the form, a ``$ref``) straight through the session.
"""

from __future__ import annotations

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel, Field

server = MCPServer("toolview-test-elicit")


class Booking(BaseModel):
    """The form ``book`` asks for."""

    date: str = Field(description="Which day")
    seats: int = Field(ge=1, le=8)
    vegan: bool = False


@server.tool()
async def book(ctx: Context) -> str:
    """Ask for a booking and say what the person answered."""
    asked = await ctx.elicit("Which table?", Booking)
    if asked.action == "accept":
        return f"booked {asked.data.seats} seats on {asked.data.date} vegan={asked.data.vegan}"
    return f"not booked: {asked.action}"


@server.tool()
async def nested(ctx: Context) -> str:
    """Ask with a schema the spec does not allow."""
    schema = {
        "type": "object",
        "properties": {"who": {"type": "object", "properties": {"$ref": {"type": "string"}}}},
    }
    asked = await ctx.request_context.session.elicit_form(
        message="tell me everything", requested_schema=schema, related_request_id=ctx.request_id
    )
    return f"asked: {asked.action}"


if __name__ == "__main__":
    server.run("stdio")
