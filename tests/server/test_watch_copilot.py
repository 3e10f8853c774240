"""``serve --watch-agents`` follows Copilot CLI's sessions live, under ``~/.copilot``.

A real ``toolview serve`` child, ``HOME`` a temporary folder: the real session
(tests/hosts/copilot/real, written by Copilot CLI 1.0.102) is written half, the
server catches up, the rest is appended and shows up in the same thread, every
call answered, the sub-agent's call nested, the failed command a failure. Each
wait is on the API's answer, never a sleep.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer
from watch_serving import until

REAL = next((Path(__file__).resolve().parents[1] / "hosts" / "copilot" / "real").rglob("*.jsonl"))


def _events(base: str, thread: str) -> list[dict[str, object]]:
    try:
        page = httpx.get(f"{base}/api/threads/{thread}/events?after=0", timeout=60).json()
    except httpx.HTTPError:
        return []
    return [event["observation"] for event in page.get("events", [])]


def _results(base: str, thread: str) -> dict[object, dict[str, object]]:
    return {o["toolCallId"]: o for o in _events(base, thread) if o["kind"] == "tool-result"}


def test_a_copilot_session_is_watched_and_grows_live(
    tmp_path: Path, served: Callable[..., ToolviewServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    lines = REAL.read_bytes().splitlines(keepends=True)
    half = next(i for i, line in enumerate(lines) if b'"toolCallId":"c3"' in line)
    path = tmp_path / ".copilot" / "session-state" / REAL.parent.name / "events.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"".join(lines[:half]))
    server = served("--db", str(tmp_path / "log.db"), "--watch-agents")
    thread = f"copilot-{REAL.parent.name}"
    until(lambda: set(_results(server.url, thread)) == {"c1", "c2"}, what="the first half")
    with path.open("ab") as stream:
        stream.write(b"".join(lines[half:]))
    every = {"c1", "c2", "c3", "c4", "c5", "s1"}
    until(lambda: set(_results(server.url, thread)) == every, what="the appended half")
    results = _results(server.url, thread)
    assert [i for i, r in sorted(results.items()) if r.get("isError")] == ["c2"]
    calls = {o["toolCallId"]: o for o in _events(server.url, thread) if o["kind"] == "tool-call"}
    assert calls["s1"].get("parentCallId") == "c5" and "parentCallId" not in calls["c1"]
