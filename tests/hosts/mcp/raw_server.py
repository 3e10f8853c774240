"""A real stdio MCP server that answers with hand-written raw JSON.

The SDK's server validates what it sends, so it cannot send the shapes a client
must survive: a block of a type nobody knows yet, a hostile tool description,
a UI pointer on a tool. This script speaks JSON-RPC over stdio by hand.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOLS = [
    {
        "name": "odd",
        "description": "Returns odd blocks\x1b]0;pwned\x07 \x1b[31mred\x1b[0m",
        "inputSchema": {"type": "object"},
        "_meta": {"ui": {"resourceUri": "ui://odd/view"}},
    }
]
RESULT = {
    "content": [
        {"type": "text", "text": "before"},
        {"type": "hologram", "frames": [1, 2, 3]},
        {"type": "text", "text": "after"},
    ],
    "isError": "nope",
}


def answer(request: dict[str, Any]) -> dict[str, Any] | None:
    method = request.get("method")
    if "id" not in request:
        return None  # a notification
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": request["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "raw", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        result = RESULT
    else:
        return {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": method}}
    return {"jsonrpc": "2.0", "id": request["id"], "result": result}


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            response = answer(json.loads(line))
            if response is not None:
                sys.stdout.write(json.dumps(response) + "\n")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
