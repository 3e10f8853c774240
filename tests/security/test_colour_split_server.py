"""A token cut by ``grep --color`` reaches no raw path (issue 21, finding 4).

The fixture is real: ``grep --color=always`` run over a config file holding a
GitHub token, which prints ``…=\\x1b[01;31m\\x1b[Kghp_\\x1b[m\\x1b[K<body>``.
That output is a tool result's text (a running partial, then the final) and,
the same line, a call's argument, posted to a real ``toolview serve``
process. Every endpoint is then read: ``/raw`` (what the page's "Raw
observations" panel shows), ``/events``, ``/follow`` (elide and live), AG-UI
(snapshot JSON and SSE, live), the page and its fragment, the thread's
search and the cross-thread search (their snippets). Then ``toolview show
--json`` (a real process) and a ``capture(record=…)`` file. No answer may hold
the token's body; all the endpoints that leak are listed in one failure.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_field_redaction import END, ENDPOINTS, NDJSON
from toolview_servers import REPO, ToolviewServer

from toolview.recording import capture

TOKEN = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"
LEAKS = (TOKEN[4:], TOKEN[4:14], TOKEN[-10:])


def grep_output(tmp: Path) -> str:
    """What ``grep --color=always -n ghp_`` prints for a file holding ``TOKEN``."""
    path = tmp / "deploy.env"
    path.write_text(f"REGION=eu-west-1\nexport GITHUB_TOKEN={TOKEN}\nRETRIES=3\n")
    command = ["grep", "--color=always", "-n", "-e", "ghp_", str(path)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "ghp_\x1b[m\x1b[K" + TOKEN[4:] in out  # the token cut by grep's colour codes
    return out


def observations(out: str) -> list[dict[str, Any]]:
    """A run: the grep call (its argument holds the output line), a partial, the result."""
    result = {"kind": "tool-result", "toolCallId": "c1", "toolName": "shell", "isError": False}
    return [
        {"kind": "run-started", "runId": "r1"},
        {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell", "args": {"seen": out}},
        {**result, "text": out + "still reading\n", "complete": False},
        {**result, "text": out, "complete": True},
        {"kind": "run-ended", "runId": "r1", "outcome": "completed"},
        {"kind": "message", "role": "assistant", "text": END},
    ]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ToolviewServer, str]]:
    tmp = tmp_path_factory.mktemp("colour")
    server = ToolviewServer.start(["--port", "0", "--db", str(tmp / "log.db")])
    try:
        out = grep_output(tmp)
        httpx.post(f"{server.url}/api/threads", json={"id": "grep"}).raise_for_status()
        body = "".join(json.dumps(o) + "\n" for o in observations(out))
        url = f"{server.url}/api/threads/grep/observations"
        httpx.post(url, content=body, headers=NDJSON).raise_for_status()
        yield server, out
    finally:
        server.kill()


def _answer(response: httpx.Response) -> bytes:
    """A search's answer without the reader's own words it echoes: its matches and snippets."""
    answer = response.raise_for_status().json()
    echoed = ("query", "words")  # the search across threads lists the words it searched
    return json.dumps({key: value for key, value in answer.items() if key not in echoed}).encode()


def _leaks(body: bytes) -> list[str]:
    return [leak for leak in LEAKS if leak.encode() in body]


def test_a_colour_split_token_reaches_no_endpoint(served: tuple[ToolviewServer, str]) -> None:
    server, _ = served
    base = f"{server.url}/api/threads/grep"
    bodies = {name: read(server.url, "grep") for name, read in ENDPOINTS.items()}
    bodies["raw"] = httpx.get(f"{base}/calls/c1/raw").content
    for query in ("GITHUB_TOKEN", LEAKS[1]):  # the key, and the token's body itself
        found = _answer(httpx.get(f"{base}/search", params={"q": query}))
        across = _answer(httpx.get(f"{server.url}/api/search", params={"q": query}))
        bodies[f"search {query[:6]}"], bodies[f"cross search {query[:6]}"] = found, across
    assert b"GITHUB" in bodies["search GITHUB"] and b"GITHUB" in bodies["raw"]  # they answered
    assert all(END.encode() in bodies[name] for name in ENDPOINTS)  # the whole thread came back
    leaking = {name: _leaks(body) for name, body in bodies.items() if _leaks(body)}
    assert not leaking, f"the token's body leaks on: {sorted(leaking)}"


def test_the_redacted_raw_observations_keep_grep_s_colours(
    served: tuple[ToolviewServer, str],
) -> None:
    server, out = served
    raw = httpx.get(f"{server.url}/api/threads/grep/calls/c1/raw").json()
    text = next(o["text"] for o in raw["observations"] if o["kind"] == "tool-result")
    prefix = out[: out.index("ghp_")]
    assert text.startswith(prefix) and "\x1b[32m" in prefix  # line number colour, kept
    assert text == prefix + "[redacted: github-token]\x1b[m\n"


def test_show_json_of_a_colour_split_token(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    out = grep_output(tmp_path)
    path.write_text("".join(json.dumps(o) + "\n" for o in observations(out)))
    command = [sys.executable, "-c", "from toolview.cli import main; main()"]
    shown = subprocess.run(
        [*command, "show", "--json", str(path)], capture_output=True, cwd=REPO, check=True
    ).stdout
    assert b"GITHUB_TOKEN" in shown
    assert not _leaks(shown)


def test_a_capture_record_of_a_colour_split_token(tmp_path: Path) -> None:
    out = grep_output(tmp_path)
    record = tmp_path / "record.jsonl"
    with capture(live=False, record=record) as session:
        session.call("c1", "shell", {"seen": out})
        session.result("c1", out)
    written = record.read_bytes()
    assert b"GITHUB_TOKEN" in written
    assert not _leaks(written)
