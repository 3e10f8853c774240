"""The server's pages and live fragments draw a failed command whole (issue 12, item 1).

The live page swaps in the call fragment the server renders, so what a
browser shows for a failed command is exactly this markup: the error frame
(badge and ARIA text from the one status table) around the shell body.
"""

from __future__ import annotations

import json
import re

from starlette.testclient import TestClient

CALL = {
    "kind": "tool-call",
    "toolCallId": "c1",
    "toolName": "shell",
    "args": {"command": "make test"},
}
FAILED = {
    "kind": "tool-result",
    "toolCallId": "c1",
    "toolName": "shell",
    "text": "ok 1\nboom\n",
    "complete": True,
    "isError": True,
    "descriptor": {
        "kind": "shell",
        "props": {
            "command": "make test",
            "exitCode": 3,
            "stdout": "ok 1\n",
            "stderr": "boom\n",
            "durationMs": 2100,
        },
        "truncated": {"shown": 2, "total": 502, "unit": "lines"},
    },
}


def test_every_html_route_draws_a_failed_command_whole(client: TestClient) -> None:
    client.post("/api/threads", json={"id": "t"})
    body = "".join(json.dumps(o) + "\n" for o in (CALL, FAILED))
    assert client.post("/api/threads/t/observations", content=body).status_code == 200
    routes = ("/api/threads/t/call?id=c1", "/api/threads/t/calls/c1/html", "/api/threads/t/html")
    for route in [*routes, "/threads/t"]:
        html = client.get(route).text
        assert 'data-state="error"' in html and "Tool call failed" in html, route
        assert '<div class="tv-command">$ make test</div>' in html, route
        said = re.sub(r'<span class="tv-gist">[^<]*</span>', "", html)  # the collapsed call's line
        assert said.count("make test") == 1, route  # not on an args line too
        assert '<pre class="tv-pre">ok 1' in html, route  # stdout, not painted as an error
        assert '<div class="tv-label">stderr</div>' in html, route
        assert '<pre class="tv-pre tv-stderr">boom' in html, route
        assert "exit code 3" in html and "2.1 s" in html, route
        assert "… 500 more lines" in html, route
