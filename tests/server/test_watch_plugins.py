"""``serve --watch-agents`` follows a reader plug-in's sessions live, as it does the built-ins'.

A real ``toolview serve`` child, ``HOME`` a temporary folder, the docs'
tinyagent reader installed on its path as a real entry-point distribution
(tests/cli/reader_plugins.py). Each wait is on the API's answer, never a sleep.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer
from watch_serving import size, until

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
from reader_plugins import install, tinyagent_session


def _events(base: str, thread: str) -> list[dict[str, object]]:
    page = httpx.get(f"{base}/api/threads/{thread}/events?after=0", timeout=60).json()
    return [event["observation"] for event in page["events"]]


def test_a_plug_in_session_is_watched_and_grows_live(
    tmp_path: Path, served: Callable[..., ToolviewServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(install(tmp_path / "site")))
    path = tinyagent_session(tmp_path / ".tinyagent" / "sessions" / "live-1.jsonl")
    server = served("--db", str(tmp_path / "log.db"), "--watch-agents")
    thread = "tinyagent-live-1"
    until(lambda: size(server.url, thread) == 5, what="the session caught up")
    with path.open("ab") as stream:
        stream.write(json.dumps({"type": "tinyagent.prompt", "text": "and now?"}).encode())
        stream.write(b"\n")
    until(lambda: size(server.url, thread) == 6, what="the line written after the start")
    kinds = [(o["kind"], o.get("toolName"), o.get("isError")) for o in _events(server.url, thread)]
    assert kinds == [
        ("message", None, None),
        ("tool-call", "shell", None),
        ("tool-result", "shell", True),
        ("tool-call", "shell", None),
        ("tool-result", "shell", False),
        ("message", None, None),
    ]
