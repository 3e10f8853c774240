"""``serve --watch-agents`` follows OpenCode's database live: a thread a session.

The REAL OpenCode CLI (1.18.33, offline against the scripted model) runs once, a
real ``toolview serve --watch-agents`` child (``HOME`` a temporary folder) reads
its session; a second ``opencode run`` while the server runs appears as a second
thread, live, and the first is not drawn again. Each wait is on the API's answer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from toolview_servers import ToolviewServer
from watch_serving import until

from scripted_agents.opencode_cli import run_opencode


def _said(base: str) -> dict[str, list[str]]:
    """Each ``opencode-…`` thread's assistant texts."""
    try:
        threads = httpx.get(f"{base}/api/threads", timeout=60).json()["threads"]
        said: dict[str, list[str]] = {}
        for thread in (t["id"] for t in threads if t["id"].startswith("opencode-ses_")):
            page = httpx.get(f"{base}/api/threads/{thread}/events?after=0", timeout=60).json()
            said[thread] = [
                e["observation"]["text"]
                for e in page["events"]
                if e["observation"]["kind"] == "message" and e["observation"]["role"] == "assistant"
            ]
    except httpx.HTTPError:
        return {}
    return said


def test_a_second_opencode_run_appears_live_as_its_own_thread(
    tmp_path: Path, served: Callable[..., ToolviewServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pi.model_server import Turn  # after opencode_cli: it puts tests/hosts on the path

    first = run_opencode(tmp_path, [Turn(text="answer 1")])
    assert first.returncode == 0, first.stderr[-4000:]
    monkeypatch.setenv("HOME", str(first.home))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    server = served("--db", str(tmp_path / "log.db"), "--watch-agents")
    until(lambda: sorted(_said(server.url).values()) == [["answer 1"]], what="the first run")
    second = run_opencode(tmp_path, [Turn(text="answer 2")])
    assert second.returncode == 0, second.stderr[-4000:]
    every = [["answer 1"], ["answer 2"]]
    until(lambda: sorted(_said(server.url).values()) == every, what="the second run, live")
