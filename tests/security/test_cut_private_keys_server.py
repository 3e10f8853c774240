"""A real key cut before its ``END`` line, through a real ``toolview serve`` process.

Finding 2 of issue 21 held on every endpoint: the server redacts what it
sends with the same functions. A handful of fresh keys (RSA 2048 keys with a
body line that starts with ``+``, which the old code took for a diff marker,
an encrypted PKCS#1 key, an OpenSSH key), each cut as ``head -n 12`` would,
just after its ``+`` line and just before ``END``; each cut posted as a
call's partials (growing line by line, what a live follower is sent) and its
final result, one call left running. Then every endpoint is read (``/events``,
``/follow`` in both modes, AG-UI as SSE, JSON and live, the page and its
fragment): no key line may be in any byte of any answer. The same rows posted
without their fences come back whole: the check would see a leak.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_field_redaction import END, ENDPOINTS
from toolview_servers import NDJSON, ToolviewServer

from corpora.private_keys import Key, generate, shown


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    path: Path = tmp_path_factory.mktemp("cut-keys") / "log.db"
    started = ToolviewServer.start(["--port", "0", "--db", str(path)])
    try:
        yield started
    finally:
        started.kill()


@pytest.fixture(scope="module")
def keys() -> list[Key]:
    made = generate(plus_keys=3)
    plus = [key for key in made if key.name == "rsa-pkcs8" and key.plus_line() is not None]
    wanted = {"rsa-pkcs1-encrypted", "ed25519-openssh", "rsa-openssh"}
    return plus[:3] + [key for key in made if key.name in wanted]


def cut_texts(key: Key) -> list[list[str]]:
    """``head -n 12``, the lines up to the first ``+`` line, all but ``END``."""
    plus = key.plus_line() or 1
    return [list(key.lines[:kept]) for kept in sorted({12, plus + 1, len(key.lines) - 1})]


def _result(call: str, text: str, complete: bool) -> dict[str, Any]:
    return {
        "kind": "tool-result",
        "toolCallId": call,
        "toolName": "shell",
        "text": text,
        "complete": complete,
        "isError": False,
    }


def observations(cuts: list[list[str]]) -> list[dict[str, Any]]:
    """A call per cut: its output growing line by line, then final; the last call runs on."""
    out: list[dict[str, Any]] = [{"kind": "run-started", "runId": "r"}]
    for number, lines in enumerate(cuts):
        call = f"c{number}"
        out.append({"kind": "tool-call", "toolCallId": call, "toolName": "shell", "args": {}})
        out += [_result(call, "\n".join(lines[:n]) + "\n", False) for n in range(1, len(lines))]
        if number < len(cuts) - 1:
            out.append(_result(call, "\n".join(lines) + "\n", True))
    out.append({"kind": "message", "role": "assistant", "text": END})
    return out


def publish(server: ToolviewServer, thread: str, items: list[dict[str, Any]]) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": thread}).raise_for_status()
    body = "".join(json.dumps(item) + "\n" for item in items)
    url = f"{server.url}/api/threads/{thread}/observations"
    httpx.post(url, content=body, headers=NDJSON, timeout=60).raise_for_status()


def test_no_endpoint_shows_a_line_of_a_cut_key(server: ToolviewServer, keys: list[Key]) -> None:
    assert len(keys) >= 5
    for number, key in enumerate(keys):
        thread = f"key{number}"
        publish(server, thread, observations(cut_texts(key)))
        for endpoint, read in ENDPOINTS.items():
            body = html.unescape(read(server.url, thread).decode())
            assert END in body, f"{endpoint}: the thread did not come back whole"
            assert shown(body, key.rows) == [], (key.name, endpoint)
    rows = keys[0].rows  # the same lines, no fences: no key, shown on every endpoint
    publish(server, "control", observations([rows, ["still running"]]))
    for endpoint, read in ENDPOINTS.items():
        assert shown(html.unescape(read(server.url, "control").decode()), rows) == rows, endpoint
