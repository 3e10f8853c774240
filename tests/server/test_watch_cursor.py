"""``serve --watch-agents`` follows a Cursor agent run saved under ``~/.cursor/projects`` as
it is written (``cursor-agent -p --output-format stream-json … > run.jsonl``).

A real ``toolview serve`` child, ``HOME`` a temporary folder: the fixture run
(tests/hosts/cursor/fixtures) is written half, the server catches up, the rest
is appended and shows up in the same thread, the failed command and the missing
file failures. Each wait is on the API's answer, never a sleep.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer
from watch_serving import until

RUN = Path(__file__).resolve().parents[1] / "hosts" / "cursor" / "fixtures" / "run.jsonl"


def _results(base: str, thread: str) -> dict[object, dict[str, object]]:
    try:
        page = httpx.get(f"{base}/api/threads/{thread}/events?after=0", timeout=60).json()
    except httpx.HTTPError:
        return {}
    observations = [event["observation"] for event in page.get("events", [])]
    return {o["toolCallId"]: o for o in observations if o["kind"] == "tool-result"}


def test_a_cursor_run_is_watched_and_grows_live(
    tmp_path: Path, served: Callable[..., ToolviewServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    lines = RUN.read_bytes().splitlines(keepends=True)
    half = next(i for i, line in enumerate(lines) if b'"call_id":"call_rd1"' in line)
    path = tmp_path / ".cursor" / "projects" / "shop" / "fix-rounding.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"".join(lines[:half]))
    server = served("--db", str(tmp_path / "log.db"), "--watch-agents")
    thread = "cursor-fix-rounding"
    until(lambda: set(_results(server.url, thread)) == {"call_sh1", "call_sh2"}, what="half")
    with path.open("ab") as stream:
        stream.write(b"".join(lines[half:]))
    until(lambda: len(_results(server.url, thread)) == 10, what="the appended half")
    failed = sorted(i for i, r in _results(server.url, thread).items() if r.get("isError"))
    assert failed == ["call_rd2", "call_sh2"]
